#pragma once
// The builds plugin's endpoints, one per file.

#include "loupe/host.hpp"
#include "service/build_events.hpp"
#include "uploads/upload_policy.hpp"

namespace loupe::builds {

/// POST /builds
void add_create_build(Host& host, const BuildEvents& events, const UploadPolicy& policy);
/// PUT /builds/{buildId}
void add_update_build(Host& host, const BuildEvents& events, const UploadPolicy& policy);
void add_finalize_builds(Host& host, const BuildEvents& events);  ///< POST /builds/finalize
void add_get_build(Host& host);      ///< GET /projects/{owner}/{project}/builds/{buildNumber}
void add_list_builds(Host& host);    ///< GET /projects/{owner}/{project}/builds
void add_find_baseline(Host& host);  ///< POST /baseline
/// GET /projects/{owner}/{project}/builds/{buildNumber}/diffs
void add_list_diffs(Host& host);
/// POST /projects/{owner}/{project}/changes/{changeId}/ignore and .../unignore
void add_change_ignore_routes(Host& host);
void add_list_tests(Host& host);  ///< GET /projects/{owner}/{project}/tests
void add_get_test(Host& host);    ///< GET /projects/{owner}/{project}/tests/{testId}
/// GET, POST /projects/{owner}/{project}/tests/{testId}/masks, DELETE …/masks/{maskId}
void add_test_masks_routes(Host& host);
/// GET /_loupe/projects/{owner}/{project}/tests/{testId}/history: the test page's history.
void add_test_history(Host& host);
/// GET /projects/{owner}/{project}/tests/{testId}/changes
void add_list_test_changes(Host& host);
void add_list_ignored_changes(Host& host);  ///< GET /projects/{owner}/{project}/ignored-changes

}  // namespace loupe::builds
