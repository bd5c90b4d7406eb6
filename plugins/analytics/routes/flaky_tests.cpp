// GET /projects/{owner}/{project}/analytics/flaky?period=LAST_7_DAYS&limit=20: the project's
// tests with the highest flakiness over the period, with the diff list's test metrics.
#include <soci/soci.h>

#include "routes/routes.hpp"

namespace loupe::analytics {
namespace {

constexpr const char* default_period = "LAST_7_DAYS";
constexpr int default_limit = 20;
constexpr int max_limit = 100;

struct FlakyInput {
    std::string period = default_period;
    int limit = default_limit;
};

std::optional<int> parse_limit(const std::string& text, Validation& validation) {
    const bool digits = !text.empty() && text.size() <= 9 &&
                        text.find_first_not_of("0123456789") == std::string::npos;
    if (!digits) {
        validation.add("limit", "Invalid input: expected number, received NaN");
        return std::nullopt;
    }
    const int value = std::stoi(text);
    if (value < 1) {
        validation.add("limit", "Too small: expected number to be >=1");
        return std::nullopt;
    }
    if (value > max_limit) {
        validation.add("limit", "Too big: expected number to be <=100");
        return std::nullopt;
    }
    return value;
}

}  // namespace

void add_flaky_tests(Host& host, builds::BuildAnalytics& builds) {
    auto& database = host.db();
    host.routes().add_validated(
        Method::get, "/projects/{owner}/{project}/analytics/flaky",
        AuthRequirement::project_or_personal_token, RouteAccess::project(ProjectPermission::view),
        [&builds](Request& request) {
            Validation validation;
            FlakyInput input;
            if (request.query_count("period") > 1) {
                validation.add("period", "Invalid input: expected string, received array");
            } else if (auto period = request.query("period")) {
                if (builds.metrics_period_start(*period, now_ms())) {
                    input.period = *period;
                } else {
                    validation.add("period",
                                   R"(Invalid option: expected one of "LAST_24_HOURS"|)"
                                   R"("LAST_3_DAYS"|"LAST_7_DAYS"|"LAST_30_DAYS"|"LAST_90_DAYS")");
                }
            }
            if (request.query_count("limit") > 1) {
                validation.add("limit", "Invalid input: expected number, received array");
            } else if (auto limit = request.query("limit")) {
                if (auto parsed = parse_limit(*limit, validation)) {
                    input.limit = *parsed;
                }
            }
            validation.throw_if_any();
            return input;
        },
        [&database, &builds](Request& request, const FlakyInput& input) {
            const Project& project = request.access().require_project();
            const int64_t now = now_ms();
            const int64_t from = builds.metrics_period_start(input.period, now).value_or(now);
            auto session = database.session();
            Json tests = Json::array();
            for (auto& test : builds.flaky_tests(*session, project.id, from, now, input.limit)) {
                tests.push_back(std::move(test.resource));
            }
            return Response::json(
                {{"period", input.period}, {"from", iso_time(from)}, {"tests", std::move(tests)}});
        });
}

}  // namespace loupe::analytics
