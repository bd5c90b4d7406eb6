#pragma once
// Loads what comment_json needs for a batch of comments: authors, reacting users, thread roots'
// public ids and reactions; then renders them. A test's comments name it by the public id the
// route opened it with (`test_ids`: test row id → public id).

#include <vector>

#include "comment_json.hpp"
#include "loupe/auth/identity.hpp"

namespace soci {
class session;
}

namespace loupe::reviews {

Json comments_json(soci::session& session, Identity& identity, const std::vector<Comment>& comments,
                   const std::map<int64_t, std::string>& test_ids = {});
Json comment_json(soci::session& session, Identity& identity, const Comment& comment,
                  const std::map<int64_t, std::string>& test_ids = {});

}  // namespace loupe::reviews
