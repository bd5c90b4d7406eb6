// GET /projects/{owner}/{project}/tests: the tests that still run (a screenshot in the latest
// reference build of their build name), flakiest first over the metrics period, then the most
// recently created; `buildName` keeps one build name, `search` the names containing it.
#include <soci/soci.h>

#include <algorithm>

#include "ids/public_ids.hpp"
#include "loupe/http/pagination.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"
#include "routes/test_params.hpp"
#include "store/test_stats.hpp"

namespace loupe::builds {
namespace {

struct ListTestsInput {
    Pagination pagination;
    MetricsPeriod period = MetricsPeriod::last_7_days;
    TestFilters filters;
};

ListTestsInput parse_list_tests_input(Request& request) {
    Validation validation;
    ListTestsInput input;
    input.pagination = parse_pagination(request, validation);
    input.period = parse_metrics_period_param(request, validation);
    if (auto name = request.query("buildName"); name && !name->empty()) {
        input.filters.build_name = *name;
    }
    // Surrounding spaces are not part of what is searched, as in Argos.
    if (auto search = request.query("search")) {
        std::string trimmed(trim(*search));
        if (!trimmed.empty()) {
            input.filters.search = std::move(trimmed);
        }
    }
    validation.throw_if_any();
    return input;
}

struct RankedTest {
    TestRecord test;
    TestMetrics metrics;
};

}  // namespace

void add_list_tests(Host& host) {
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/tests",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        parse_list_tests_input, [&database](Request& request, const ListTestsInput& input) {
            const Project& project = request.access().require_project();
            const int64_t now = now_ms();
            const int64_t from = period_start_ms(input.period, now);
            auto session = database.session();
            const auto tests = tests_in_builds(
                *session, project.id, latest_reference_builds(*session, project.id), input.filters);
            std::vector<int64_t> ids;
            ids.reserve(tests.size());
            for (const auto& test : tests) {
                ids.push_back(test.id);
            }
            const auto counts = test_counts_for(*session, ids, from, now);
            std::vector<RankedTest> ranked;
            ranked.reserve(tests.size());
            for (const auto& test : tests) {
                TestCounts count;
                if (auto it = counts.find(test.id); it != counts.end()) {
                    count = it->second;
                }
                ranked.push_back(
                    {test, compute_test_metrics(count.total, count.changes, count.unique_changes)});
            }
            std::sort(ranked.begin(), ranked.end(), [](const RankedTest& a, const RankedTest& b) {
                if (a.metrics.flakiness != b.metrics.flakiness) {
                    return a.metrics.flakiness > b.metrics.flakiness;
                }
                if (a.test.created_at != b.test.created_at) {
                    return a.test.created_at > b.test.created_at;
                }
                return a.test.id > b.test.id;
            });
            const auto total = static_cast<int64_t>(ranked.size());
            const int64_t end =
                std::min(total, input.pagination.offset() + input.pagination.limit());
            Json results = Json::array();
            for (int64_t i = input.pagination.offset(); i < end; ++i) {
                const auto& item = ranked[static_cast<std::size_t>(i)];
                results.push_back(test_json(test_public_id(project.name, item.test.id),
                                            item.test.name, item.test.build_name, item.metrics));
            }
            return Response::json(page_envelope(input.pagination, total, std::move(results)));
        });
}

}  // namespace loupe::builds
