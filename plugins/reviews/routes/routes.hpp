#pragma once
// The reviews plugin's endpoints, one per file.

#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"

namespace loupe::reviews {

/// POST /projects/{owner}/{project}/builds/{buildNumber}/reviews
void add_create_review(Host& host, builds::BuildsService& builds);
/// GET /projects/{owner}/{project}/builds/{buildNumber}/reviews
void add_list_reviews(Host& host, builds::BuildsService& builds);
/// POST /projects/{owner}/{project}/builds/{buildNumber}/reviews/{reviewId}/dismiss
void add_dismiss_review(Host& host, builds::BuildsService& builds);

}  // namespace loupe::reviews
