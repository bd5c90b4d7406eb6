#pragma once
// Looking up the comment a route names, on the build or test the route opened: a single
// comment (edit, reactions, get, delete) or the root of its thread (resolve, subscriptions,
// replies). Ids are the public ids the API shows; anything else names nothing.

#include <string>

#include "loupe/http/http_error.hpp"
#include "store/comments.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

/// The comment (deleted ones included), else 404 "Comment not found".
Comment require_comment(soci::session& session, const CommentSubject& subject,
                        const std::string& public_id);
/// The root of the thread holding the comment, else 404 "Thread not found" (also when the
/// comment or its root was deleted).
Comment require_thread_root(soci::session& session, const CommentSubject& subject,
                            const std::string& public_id);

/// The comment as `viewer` may see it, else 404 "Comment not found": a deleted comment is there
/// for no one, a draft (a comment of a pending review) only for its author.
Comment require_visible_comment(soci::session& session, const CommentSubject& subject,
                                const std::string& public_id, int64_t viewer);

/// A fresh public id: "comment-" and 16 random letters and digits.
std::string new_comment_id();

}  // namespace loupe::reviews
