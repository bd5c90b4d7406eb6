// GET /projects/{owner}/{project}/tests/{testId}/changes: the distinct changes (mask
// fingerprints) the test produced in reference builds over the period, the most frequent first
// (then the most recently seen), each with its first and last sighting and the diff of the last;
// `ignored=true|false` keeps the ignored ones or the others.
#include <soci/soci.h>

#include <algorithm>

#include "ids/public_ids.hpp"
#include "loupe/http/pagination.hpp"
#include "routes/diff_test_facts.hpp"
#include "routes/routes.hpp"
#include "routes/test_params.hpp"
#include "store/diffs.hpp"
#include "store/ignored_changes.hpp"
#include "store/screenshots.hpp"

namespace loupe::builds {
namespace {

struct ListChangesInput {
    Pagination pagination;
    MetricsPeriod period = MetricsPeriod::last_7_days;
    std::optional<bool> ignored;
};

ListChangesInput parse_list_changes_input(Request& request) {
    Validation validation;
    ListChangesInput input;
    input.pagination = parse_pagination(request, validation);
    input.period = parse_metrics_period_param(request, validation);
    if (auto value = request.query("ignored")) {
        if (*value == "true" || *value == "false") {
            input.ignored = *value == "true";
        } else {
            validation.add("ignored", R"(Invalid option: expected one of "true"|"false")");
        }
    }
    validation.throw_if_any();
    return input;
}

struct TestChange {
    std::string fingerprint;
    ChangeSightings seen;
    int64_t occurrences = 0;
    bool ignored = false;
};

bool more_frequent_first(const TestChange& a, const TestChange& b) {
    if (a.occurrences != b.occurrences) {
        return a.occurrences > b.occurrences;
    }
    if (a.seen.last.created_at != b.seen.last.created_at) {
        return a.seen.last.created_at > b.seen.last.created_at;
    }
    return a.fingerprint < b.fingerprint;
}

// The test's changes over the period, filtered and in order.
std::vector<TestChange> ordered_changes(soci::session& session, const Project& project,
                                        int64_t test_id, int64_t from,
                                        std::optional<bool> ignored_filter) {
    const auto occurrences = change_occurrences_for(session, {test_id}, from);
    const auto ignored = ignored_changes_of(session, project.id, {test_id});
    std::vector<TestChange> changes;
    for (auto& [fingerprint, seen] : changes_since(session, test_id, from)) {
        const std::pair<int64_t, std::string> key{test_id, fingerprint};
        TestChange change{fingerprint, seen, 0, ignored.contains(key)};
        if (auto it = occurrences.find(key); it != occurrences.end()) {
            change.occurrences = it->second;
        }
        if (!ignored_filter || *ignored_filter == change.ignored) {
            changes.push_back(std::move(change));
        }
    }
    std::sort(changes.begin(), changes.end(), more_frequent_first);
    return changes;
}

// The SnapshotDiff JSON of each diff, by id, with its test and change.
std::map<int64_t, Json> diffs_json(soci::session& session, const Project& project,
                                   const std::vector<int64_t>& diff_ids, int64_t from, int64_t now,
                                   BlobStore& blobs) {
    const auto rows = diffs_with_ids(session, diff_ids);
    std::vector<int64_t> screenshot_ids;
    for (const auto& row : rows) {
        for (const auto& id : {row.base_screenshot_id, row.head_screenshot_id}) {
            if (id) {
                screenshot_ids.push_back(*id);
            }
        }
    }
    const auto screenshots = screenshots_by_id(session, screenshot_ids);
    const auto views = diff_views(rows, screenshots);
    std::vector<const DiffView*> page;
    page.reserve(views.size());
    for (const auto& view : views) {
        page.push_back(&view);
    }
    const auto facts = diff_test_facts(session, project, page, from, now);
    std::map<int64_t, Json> json;
    for (const auto& view : views) {
        Json item = diff_json(view, blobs);
        add_test_and_change(project.name, view, facts, item);
        json[view.row.id] = std::move(item);
    }
    return json;
}

}  // namespace

void add_list_test_changes(Host& host) {
    auto& database = host.db();
    auto& blobs = host.blobs();
    Host* host_ptr = &host;
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/tests/{testId}/changes",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        parse_list_changes_input,
        [&database, &blobs, host_ptr](Request& request, const ListChangesInput& input) {
            const Project& project = request.access().require_project();
            const std::string public_url = host_ptr->public_url();
            const int64_t now = now_ms();
            const int64_t from = period_start_ms(input.period, now);
            auto session = database.session();
            const auto test = require_project_test(*session, project, request.param("testId"));
            const auto changes = ordered_changes(*session, project, test.id, from, input.ignored);
            const auto total = static_cast<int64_t>(changes.size());
            const int64_t end =
                std::min(total, input.pagination.offset() + input.pagination.limit());
            std::vector<int64_t> last_diffs;
            for (int64_t i = input.pagination.offset(); i < end; ++i) {
                last_diffs.push_back(changes[static_cast<std::size_t>(i)].seen.last.diff_id);
            }
            auto diffs = diffs_json(*session, project, last_diffs, from, now, blobs);
            Json results = Json::array();
            for (int64_t i = input.pagination.offset(); i < end; ++i) {
                const auto& change = changes[static_cast<std::size_t>(i)];
                results.push_back(Json{
                    {"id", change_public_id(project.name, test.id, change.fingerprint)},
                    {"ignored", change.ignored},
                    {"occurrences", change.occurrences},
                    {"firstSeen", occurrence_json(change.seen.first, blobs, public_url, project)},
                    {"lastSeen", occurrence_json(change.seen.last, blobs, public_url, project)},
                    {"diff", std::move(diffs[change.seen.last.diff_id])}});
            }
            return Response::json(page_envelope(input.pagination, total, std::move(results)));
        });
}

}  // namespace loupe::builds
