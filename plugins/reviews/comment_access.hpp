#pragma once
// Looking up the comment a route names, after the build checks (build_access.hpp): a single
// comment (edit, reactions, get, delete) or the root of its thread (resolve, subscriptions,
// replies). Ids are the public ids the API shows; anything else names nothing.

#include <string>

#include "build_access.hpp"
#include "store/comments.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

/// The comment (deleted ones included), else 404 "Comment not found".
Comment require_comment(soci::session& session, int64_t build_id, const std::string& public_id);
/// The root of the thread holding the comment, else 404 "Thread not found" (also when the
/// comment or its root was deleted).
Comment require_thread_root(soci::session& session, int64_t build_id, const std::string& public_id);

/// The build of the request with `permission` required, else 403 with `refusal`.
BuildAccess open_build_for(Host& host, builds::BuildsService& builds, Request& request,
                           int64_t number, bool Permissions::*permission,
                           const std::string& refusal);

/// A fresh public id: "comment-" and 16 random letters and digits.
std::string new_comment_id();

}  // namespace loupe::reviews
