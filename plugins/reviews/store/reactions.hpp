#pragma once
// Emoji reactions: one row per (comment, user, emoji).

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace soci {
class session;
}

namespace loupe::reviews {

struct Reaction {
    int64_t comment_id = 0;
    int64_t user_id = 0;
    std::string emoji;
    int64_t created_at = 0;
};

/// Adds the reaction (nothing when it exists).
void add_reaction(soci::session& session, int64_t comment_id, int64_t user_id,
                  const std::string& emoji);
/// Removes the reaction (nothing when it does not exist).
void remove_reaction(soci::session& session, int64_t comment_id, int64_t user_id,
                     const std::string& emoji);
/// The reactions of these comments, in the order they were made.
std::vector<Reaction> reactions_of(soci::session& session, const std::vector<int64_t>& comment_ids);

}  // namespace loupe::reviews
