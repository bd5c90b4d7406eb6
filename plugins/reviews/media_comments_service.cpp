#include "media_comments_service.hpp"

#include "loupe/http/http_error.hpp"
#include "routes/routes.hpp"
#include "store/comments.hpp"

namespace loupe::reviews {

void MediaCommentsService::add_media_place(Host& host, MediaCommentPlace place) {
    CommentPlaceKind kind;
    kind.kind = CommentSubject::Kind::media;
    kind.prefix = "/media/{mediaId}";
    kind.noun = "media";
    kind.check_path = [](Request&, Validation&) {};
    kind.access = [find = place.find_project](ProjectPermission permission, const std::string&) {
        // A media the caller may not see is, to them, no media at all.
        return RouteAccess::object(permission, find, "Media not found");
    };
    kind.open = [open = place.open](Request& request) {
        const auto target = open(request);
        if (!target) {
            throw HttpError::not_found("Media not found");
        }
        CommentPlace opened;
        opened.project = request.access().require_project();
        opened.subject = CommentSubject::media(target->media_id);
        opened.user_id = request.principal().user_id;
        opened.media_version_id = target->version_id;
        opened.media_name = target->name;
        return opened;
    };
    const std::vector<CommentPlaceKind> kinds{kind};
    add_create_comment(host, builds_, recorder_, kinds);
    add_read_comments(host, kinds);
    add_edit_comment(host, kinds);
    add_comment_reactions(host, kinds);
    add_comment_threads(host, kinds);
}

int64_t MediaCommentsService::delete_media_comments(soci::session& session, int64_t media_id) {
    return reviews::delete_media_comments(session, media_id);
}

}  // namespace loupe::reviews
