#pragma once

#include "loupe/host.hpp"
#include "media_json.hpp"
#include "media_settings.hpp"

namespace loupe::media {

/// Argos's media API: POST /media, POST /media/{mediaId}/finalize, GET/PATCH/DELETE
/// /media/{mediaId}, GET /media/{mediaId}/versions and GET /projects/{owner}/{project}/media.
/// Every route of a media is guarded by the media's project (RouteAccess::object).
void add_media_routes(Host& host, const MediaSettings& settings,
                      const std::function<MediaUrls()>& urls);

}  // namespace loupe::media
