#include "routes/test_params.hpp"

#include "build_json.hpp"
#include "ids/public_ids.hpp"
#include "loupe/text/strings.hpp"
#include "service/project_tests_impl.hpp"

namespace loupe::builds {
namespace {

constexpr int64_t mask_url_ttl_ms = int64_t{60} * 60 * 1000;

}  // namespace

MetricsPeriod parse_metrics_period_param(const Request& request, Validation& validation) {
    const auto value = request.query("metricsPeriod");
    if (!value) {
        return MetricsPeriod::last_7_days;
    }
    if (auto period = parse_metrics_period(*value)) {
        return *period;
    }
    validation.add("metricsPeriod",
                   "Invalid option: expected one of \"LAST_24_HOURS\"|\"LAST_3_DAYS\"|"
                   "\"LAST_7_DAYS\"|\"LAST_30_DAYS\"|\"LAST_90_DAYS\"");
    return MetricsPeriod::last_7_days;
}

TestRecord require_project_test(soci::session& session, const Project& project,
                                const std::string& public_id) {
    if (auto test = find_test_by_public_id(session, project, public_id)) {
        return *test;
    }
    throw HttpError::not_found("Test not found");
}

Json occurrence_json(const DiffOccurrence& occurrence, BlobStore& blobs,
                     const std::string& public_url, const Project& project) {
    return Json{
        {"date", iso_time(occurrence.created_at)},
        {"url", occurrence.mask_key
                    ? Json(blobs.signed_get_url(*occurrence.mask_key, "image/png", mask_url_ttl_ms))
                    : Json()},
        {"buildNumber", occurrence.build_number},
        {"buildUrl", build_url(public_url, project, occurrence.build_number)}};
}

}  // namespace loupe::builds
