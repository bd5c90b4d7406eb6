// GET /projects/{owner}/{project}/builds/{buildNumber}/diffs (reference §3.8): a build's diffs
// in review order, with their screenshots, test flakiness metrics and changes.
#include <soci/soci.h>

#include "build_json.hpp"
#include "diff_json.hpp"
#include "loupe/http/pagination.hpp"
#include "metrics/test_metrics.hpp"
#include "processing/test_counters.hpp"
#include "routes/routes.hpp"
#include "validation.hpp"

namespace loupe::builds {
namespace {

struct ListDiffsInput {
    int64_t number = 0;
    Pagination pagination;
    bool needs_review = false;
    MetricsPeriod period = MetricsPeriod::last_7_days;
};

ListDiffsInput parse(Request& request) {
    Validation validation;
    ListDiffsInput input;
    auto number = parse_positive_integer(request.param("buildNumber"), validation);
    input.pagination = parse_pagination(request, validation);
    if (auto value = request.query("needsReview")) {
        if (*value != "true" && *value != "false") {
            validation.add("needsReview", "Invalid input: expected boolean, received string");
        }
        input.needs_review = *value == "true";
    }
    if (auto value = request.query("metricsPeriod")) {
        if (auto period = parse_metrics_period(*value)) {
            input.period = *period;
        } else {
            validation.add("metricsPeriod",
                           "Invalid option: expected one of \"LAST_24_HOURS\"|\"LAST_3_DAYS\"|"
                           "\"LAST_7_DAYS\"|\"LAST_30_DAYS\"|\"LAST_90_DAYS\"");
        }
    }
    validation.throw_if_any();
    input.number = *number;
    return input;
}

struct TestRow {
    std::string name;
    std::string build_name;
};

std::optional<TestRow> find_test(soci::session& session, int64_t id) {
    std::string name, build_name;
    session << "SELECT name, build_name FROM build_tests WHERE id = :id", soci::use(id),
        soci::into(name), soci::into(build_name);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return TestRow{name, build_name};
}

// `test` and `change` of one diff (they need the counters of its test).
void add_test_and_change(soci::session& session, const DiffView& diff, const Project& project,
                         int64_t from, int64_t now, Json& out) {
    if (!diff.row.test_id) {
        return;
    }
    auto test = find_test(session, *diff.row.test_id);
    if (!test) {
        return;
    }
    const auto counts = test_counts(session, *diff.row.test_id, from, now);
    const auto metrics = compute_test_metrics(counts.total, counts.changes, counts.unique_changes);
    out["test"] = {{"id", std::to_string(*diff.row.test_id)},
                   {"name", test->name},
                   {"buildName", test->build_name},
                   {"metrics", test_metrics_json(metrics)}};
    if (!diff.row.fingerprint) {
        return;
    }
    int ignored = 0;
    session << "SELECT COUNT(*) FROM ignored_changes WHERE project_id = :p AND test_id = :t AND "
               "fingerprint = :f",
        soci::use(project.id), soci::use(*diff.row.test_id), soci::use(*diff.row.fingerprint),
        soci::into(ignored);
    out["change"] = {{"id", change_id(*diff.row.test_id, *diff.row.fingerprint)},
                     {"ignored", ignored > 0},
                     {"occurrences",
                      change_occurrences(session, *diff.row.test_id, *diff.row.fingerprint, from)}};
}

}  // namespace

void add_list_diffs(Host& host) {
    auto& identity = host.identity();
    auto& database = host.db();
    auto& blobs = host.blobs();
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/builds/{buildNumber}/diffs",
        AuthRequirement::project_or_personal_token, parse,
        [&](Request& request, const ListDiffsInput& input) {
            const auto& principal = request.principal();
            auto project = identity.authorize_project(principal, request.param("owner"),
                                                      request.param("project"));
            auto session = database.session();
            auto build = find_build_by_number(*session, project.id, input.number);
            if (!build) {
                throw principal.is_project() ? HttpError::unauthorized() : HttpError::not_found();
            }
            const auto rows = build_diffs(*session, build->id);
            std::vector<int64_t> ids;
            for (const auto& row : rows) {
                for (const auto& id : {row.base_screenshot_id, row.head_screenshot_id}) {
                    if (id) {
                        ids.push_back(*id);
                    }
                }
            }
            const auto screenshots = screenshots_by_id(*session, ids);
            auto views = diff_views(rows, screenshots);
            if (input.needs_review) {
                std::erase_if(views, [&](const DiffView& view) {
                    return !needs_review(view, build->subset);
                });
            }
            sort_for_review(views);
            const int64_t total = static_cast<int64_t>(views.size());
            const int64_t now = now_ms();
            const int64_t from = period_start_ms(input.period, now);
            Json results = Json::array();
            const int64_t offset = input.pagination.offset();
            const int64_t end = std::min(total, offset + input.pagination.limit());
            for (int64_t i = offset; i < end; ++i) {
                Json item = diff_json(views[static_cast<std::size_t>(i)], blobs);
                add_test_and_change(*session, views[static_cast<std::size_t>(i)], project, from,
                                    now, item);
                results.push_back(std::move(item));
            }
            return Response::json(page_envelope(input.pagination, total, std::move(results)));
        });
}

}  // namespace loupe::builds
