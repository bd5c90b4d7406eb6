// GET /_loupe/projects/{owner}/{project}/tests/{testId}/history?branch=&limit=: the test's
// diffs across builds, newest build first (30 unless `limit`, at most 100; only the builds of
// `branch` when set), each with its build and the build its baseline came from. The test page's
// history strip.
#include "store/test_history.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <map>

#include "diff_json.hpp"
#include "loupe/http/integer_text.hpp"
#include "routes/routes.hpp"
#include "routes/test_params.hpp"

namespace loupe::builds {
namespace {

constexpr int64_t default_history = 30;
constexpr int64_t max_history = 100;
constexpr std::size_t max_branch_length = 255;

struct HistoryInput {
    std::optional<std::string> branch;
    int64_t limit = default_history;
};

HistoryInput parse_history_input(Request& request) {
    Validation validation;
    HistoryInput input;
    if (auto branch = request.query("branch"); branch && !branch->empty()) {
        if (branch->size() > max_branch_length) {
            validation.add("branch", "Too big: expected string to have <=255 characters");
        }
        input.branch = *branch;
    }
    if (auto limit = request.query("limit")) {
        input.limit = read_positive_integer(*limit, max_history, validation).value_or(0);
    }
    validation.throw_if_any();
    return input;
}

template <NamedState E>
Json state_or_null(const std::optional<E>& state) {
    return state ? Json(std::string(to_text(*state))) : Json();
}

Json build_entry(const Build& build) {
    return Json{{"number", build.number},
                {"name", build.name},
                {"branch", build.branch},
                {"commit", build.commit},
                {"createdAt", iso_time(build.created_at)},
                {"conclusion", state_or_null(build.conclusion)},
                {"reviewState", state_or_null(build.review_state)}};
}

}  // namespace

void add_test_history(Host& host) {
    host.routes().add_validated(
        Method::get, "/_loupe/projects/{owner}/{project}/tests/{testId}/history",
        AuthRequirement::personal_token, RouteAccess::project(ProjectPermission::view),
        parse_history_input, [&host](Request& request, const HistoryInput& input) {
            const Project& project = request.access().require_project();
            auto session = host.db().session();
            const auto test = require_project_test(*session, project, request.param("testId"));
            const auto ids = test_history_diff_ids(*session, test.id, input.branch, input.limit);
            auto rows = diffs_with_ids(*session, ids);
            // Back in the history's order (newest build first).
            std::map<int64_t, std::size_t> position;
            for (std::size_t i = 0; i < ids.size(); ++i) {
                position[ids[i]] = i;
            }
            std::sort(rows.begin(), rows.end(), [&](const DiffRow& a, const DiffRow& b) {
                return position[a.id] < position[b.id];
            });
            std::vector<int64_t> screenshot_ids, build_ids;
            for (const auto& row : rows) {
                build_ids.push_back(row.build_id);
                for (const auto& id : {row.base_screenshot_id, row.head_screenshot_id}) {
                    if (id) {
                        screenshot_ids.push_back(*id);
                    }
                }
            }
            const auto screenshots = screenshots_by_id(*session, screenshot_ids);
            for (const auto& [id, screenshot] : screenshots) {
                build_ids.push_back(screenshot.build_id);
            }
            const auto builds = find_builds_by_id(*session, build_ids);
            Json results = Json::array();
            for (const auto& view : diff_views(rows, screenshots)) {
                const auto build = builds.find(view.row.build_id);
                if (build == builds.end()) {
                    continue;
                }
                Json base_build = nullptr;
                if (view.base != nullptr) {
                    if (auto base = builds.find(view.base->build_id); base != builds.end()) {
                        base_build = base->second.number;
                    }
                }
                results.push_back(Json{{"build", build_entry(build->second)},
                                       {"baseBuildNumber", base_build},
                                       {"diff", diff_json(view, host.blobs())}});
            }
            return Response::json(Json{{"results", std::move(results)}});
        });
}

}  // namespace loupe::builds
