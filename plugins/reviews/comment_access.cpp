#include "comment_access.hpp"

#include "loupe/crypto/random.hpp"

namespace loupe::reviews {

Comment require_comment(soci::session& session, const CommentSubject& subject,
                        const std::string& public_id) {
    auto comment = find_comment(session, subject, public_id);
    if (!comment) {
        throw HttpError::not_found("Comment not found");
    }
    return *comment;
}

Comment require_thread_root(soci::session& session, const CommentSubject& subject,
                            const std::string& public_id) {
    auto comment = find_comment(session, subject, public_id);
    if (comment && comment->thread_id) {
        comment = find_comment(session, *comment->thread_id);
    }
    if (!comment || comment->deleted_at || comment->subject() != subject) {
        throw HttpError::not_found("Thread not found");
    }
    return *comment;
}

Comment require_visible_comment(soci::session& session, const CommentSubject& subject,
                                const std::string& public_id, int64_t viewer) {
    auto comment = require_comment(session, subject, public_id);
    const bool others_draft = comment.pending && comment.review_id && comment.author_id != viewer;
    if (comment.deleted_at || others_draft) {
        throw HttpError::not_found("Comment not found");
    }
    return comment;
}

std::string new_comment_id() {
    // 16 characters of 62: about 95 bits nobody can guess.
    return "comment-" + crypto::random_characters(
                            16, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789");
}

}  // namespace loupe::reviews
