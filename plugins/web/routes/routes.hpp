#pragma once
// The web plugin's HTTP routes. Its own endpoints live under /_loupe/ (an underscore is never
// part of an account slug, so they cannot shadow an account's page).

#include <memory>

#include "loupe/host.hpp"
#include "session/session_manager.hpp"
#include "thumbnail/thumbnailer.hpp"

namespace loupe::web {

/// GET/POST/DELETE /_loupe/session and POST /_loupe/session/link.
void add_session_routes(Host& host, std::shared_ptr<SessionManager> sessions);
/// GET /_loupe/sessions, DELETE /_loupe/sessions/{sessionId}, POST
/// /_loupe/sessions/sign-out-others: the caller's own browser sessions
void add_own_sessions_routes(Host& host, std::shared_ptr<SessionManager> sessions);
/// The page itself: index.html for every page path, and the hashed assets.
void add_page_routes(Host& host, const WebSettings& settings);
/// GET /_loupe/thumbnails/{owner}/{project}/{buildNumber}/{diffId}/{side}.
void add_thumbnail_route(Host& host, std::shared_ptr<Thumbnailer> thumbnailer);
/// GET /_loupe/live/{owner}/{project}/{buildNumber}: the build's state digest, with an ETag.
void add_live_route(Host& host);
/// GET /_loupe/projects/{owner}/{project}/permissions and
/// GET /_loupe/accounts/{accountSlug}/permissions: what the caller may do there.
void add_permissions_routes(Host& host);

}  // namespace loupe::web
