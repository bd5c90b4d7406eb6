// GET /projects/{owner}/{project}/tests/{testId}: a test with its metrics over the period, the
// same metrics bucketed over time, whether it still runs, and the first and last time it ever
// changed.
#include <soci/soci.h>

#include "ids/public_ids.hpp"
#include "metrics/test_series.hpp"
#include "routes/routes.hpp"
#include "routes/test_params.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {
namespace {

struct GetTestInput {
    MetricsPeriod period = MetricsPeriod::last_7_days;
};

GetTestInput parse_get_test_input(Request& request) {
    Validation validation;
    GetTestInput input;
    input.period = parse_metrics_period_param(request, validation);
    validation.throw_if_any();
    return input;
}

Json optional_occurrence(const std::optional<DiffOccurrence>& occurrence, BlobStore& blobs,
                         const std::string& public_url, const Project& project) {
    return occurrence ? occurrence_json(*occurrence, blobs, public_url, project) : Json();
}

}  // namespace

void add_get_test(Host& host) {
    auto& database = host.db();
    auto& blobs = host.blobs();
    Host* host_ptr = &host;
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/tests/{testId}",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        parse_get_test_input,
        [&database, &blobs, host_ptr](Request& request, const GetTestInput& input) {
            const Project& project = request.access().require_project();
            const std::string public_url = host_ptr->public_url();
            const int64_t now = now_ms();
            const int64_t from = period_start_ms(input.period, now);
            auto session = database.session();
            const auto test = require_project_test(*session, project, request.param("testId"));
            TestCounts counts;
            if (auto found = test_counts_for(*session, {test.id}, from, now); !found.empty()) {
                counts = found.begin()->second;
            }
            const auto metrics =
                compute_test_metrics(counts.total, counts.changes, counts.unique_changes);
            const bool ongoing =
                test_has_diff_in(*session, test.id, latest_reference_builds(*session, project.id));
            const auto seen = first_and_last_change(*session, test.id);
            const auto series =
                test_series(reference_diffs_between(*session, test.id, from, now), from, now);
            const std::string id = test_public_id(project.name, test.id);
            Json body = test_json(id, test.name, test.build_name, metrics);
            body["status"] = ongoing ? "ongoing" : "removed";
            body["createdAt"] = iso_time(test.created_at);
            // The test's page on the review page, as Argos links its app.
            body["url"] =
                public_url + "/" + project.account_slug + "/" + project.name + "/tests/" + id;
            body["series"] = test_series_json(series);
            body["firstSeenChange"] = optional_occurrence(seen.first, blobs, public_url, project);
            body["lastSeenChange"] = optional_occurrence(seen.last, blobs, public_url, project);
            return Response::json(body);
        });
}

}  // namespace loupe::builds
