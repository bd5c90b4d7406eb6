#pragma once
// The Comment resource: {id, buildId, threadId, body, text, author, screenshotDiffId, anchor,
// pending, resolvedAt, editedAt, createdAt, reactions: [{emoji, count, users}], testId,
// mediaId, mediaVersionId}.

#include <map>
#include <string>
#include <vector>

#include "loupe/json.hpp"
#include "store/comments.hpp"
#include "store/reactions.hpp"

namespace loupe::reviews {

/// What rendering needs besides the comment rows, loaded by the caller.
struct CommentFacts {
    std::map<int64_t, Json> users;              ///< user id → {id, slug, name}
    std::map<int64_t, std::string> public_ids;  ///< comment id → public id (thread roots)
    std::map<int64_t, std::vector<Reaction>> reactions;  ///< by comment, in reaction order
    std::map<int64_t, std::string> test_ids;             ///< test row id → the test's public id
};

Json comment_json(const Comment& comment, const CommentFacts& facts);

}  // namespace loupe::reviews
