#pragma once
// Comment threads on another plugin's objects, with the reviews plugin's comment library (the
// same routes, bodies, mentions, reactions, threads and follows as on builds and tests). The
// media plugin registers its media as a place of comments: the routes under
// `/media/{mediaId}/comments` are added to the caller's route table during its install() and
// guarded by the media's project. Look it up with
// `host.services().find<loupe::reviews::MediaComments>()` (nullptr without the reviews plugin,
// or when it is enabled after the caller).
// OWNERSHIP: owned by the reviews plugin for the process lifetime. THREADS: add_media_place()
// during the caller's install() only; delete_media_comments() from any thread.
// VERSIONING: a new method is a minor change; a changed signature bumps service_version.

#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "loupe/auth/route_access.hpp"
#include "loupe/host.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

/// The media a comment route names, once its guard let the caller in.
struct MediaTarget {
    int64_t media_id = 0;
    std::string name;  ///< the media's name, for notifications
    /// The version a new comment pins: the newest uploaded one (none while nothing is).
    std::optional<int64_t> version_id;
};

struct MediaCommentPlace {
    /// The project of the media the path's {mediaId} names (nullopt: no such media), for the
    /// guard; it may throw an HttpError of its own (a malformed id).
    ObjectProjectFinder find_project;
    /// The media the path names; nullopt when it is gone.
    std::function<std::optional<MediaTarget>(Request&)> open;
};

class MediaComments {
public:
    static constexpr const char* service_name = "reviews.MediaComments";
    static constexpr int service_version = 1;

    virtual ~MediaComments() = default;
    /// Adds the comment routes of media to `host` (the caller's), under /media/{mediaId}.
    virtual void add_media_place(Host& host, MediaCommentPlace place) = 0;
    /// Deletes a media's comments with their reactions and follows, in the caller's
    /// transaction; the number of comments.
    virtual int64_t delete_media_comments(soci::session& session, int64_t media_id) = 0;
};

}  // namespace loupe::reviews
