#pragma once

#include "loupe/host.hpp"
#include "loupe/reviews/media_comments.hpp"
#include "media_json.hpp"
#include "media_settings.hpp"
#include "pull_request/pull_request_media.hpp"

namespace loupe::media {

/// Argos's media API: POST /media, POST /media/{mediaId}/finalize, GET/PATCH/DELETE
/// /media/{mediaId}, GET /media/{mediaId}/versions and GET /projects/{owner}/{project}/media.
/// Every route of a media is guarded by the media's project (RouteAccess::object).
/// `comments`: the reviews plugin's comments on media (nullptr without it), whose rows go with
/// a deleted media. `pull_requests` keeps the pull request's media comment true after each change.
void add_media_routes(Host& host, const MediaSettings& settings,
                      const std::function<MediaUrls()>& urls, reviews::MediaComments* comments,
                      PullRequestMedia& pull_requests);

/// The project of the media the path's {mediaId} names (400 "Invalid media ID." for an id that
/// is not one), for RouteAccess::object.
ObjectProjectFinder media_project_finder(Host& host);

/// The media the path names and its newest uploaded version, for comment routes.
std::optional<reviews::MediaTarget> media_target(Host& host, Request& request);

}  // namespace loupe::media
