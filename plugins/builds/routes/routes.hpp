#pragma once
// The builds plugin's endpoints, one per file.

#include "loupe/host.hpp"

namespace loupe::builds {

void add_create_build(Host& host);     ///< POST /builds
void add_update_build(Host& host);     ///< PUT /builds/{buildId}
void add_finalize_builds(Host& host);  ///< POST /builds/finalize
void add_get_build(Host& host);        ///< GET /projects/{owner}/{project}/builds/{buildNumber}
void add_list_builds(Host& host);      ///< GET /projects/{owner}/{project}/builds
void add_find_baseline(Host& host);    ///< POST /baseline
/// GET /projects/{owner}/{project}/builds/{buildNumber}/diffs
void add_list_diffs(Host& host);

}  // namespace loupe::builds
