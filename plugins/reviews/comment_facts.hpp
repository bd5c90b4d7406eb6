#pragma once
// Loads what comment_json needs for a batch of comments: authors, reacting users, thread roots'
// public ids and reactions; then renders them.

#include <vector>

#include "comment_json.hpp"
#include "loupe/auth/identity.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

Json comments_json(soci::session& session, Identity& identity,
                   const std::vector<Comment>& comments);
Json comment_json(soci::session& session, Identity& identity, const Comment& comment);

}  // namespace loupe::reviews
