#pragma once
// What the Tests API routes share: the `metricsPeriod` query parameter, the test a path names,
// and the JSON of one occurrence of a change.

#include <optional>
#include <string>

#include "loupe/blob/blob_store.hpp"
#include "loupe/host.hpp"
#include "metrics/test_metrics.hpp"
#include "store/project_tests.hpp"

namespace soci {
class session;
}

namespace loupe::builds {

/// `metricsPeriod` (LAST_7_DAYS when absent); an issue in `validation` when it is not a period.
MetricsPeriod parse_metrics_period_param(const Request& request, Validation& validation);

/// The project's test named by a public test id (`<PROJECT>-<sqid>`): the project part must be
/// the project's name in upper case. Throws 404 "Test not found" otherwise.
TestRecord require_project_test(soci::session& session, const Project& project,
                                const std::string& public_id);

/// {"date", "url" (the mask, a signed URL), "buildNumber", "buildUrl"}.
Json occurrence_json(const DiffOccurrence& occurrence, BlobStore& blobs,
                     const std::string& public_url, const Project& project);

}  // namespace loupe::builds
