#include "store/reactions.hpp"

#include <soci/soci.h>

#include "loupe/db/row_reader.hpp"
#include "loupe/db/rows_for_ids.hpp"
#include "loupe/json.hpp"

namespace loupe::reviews {

void add_reaction(soci::session& session, int64_t comment_id, int64_t user_id,
                  const std::string& emoji) {
    const int64_t now = now_ms();
    session << "INSERT INTO comment_reactions (comment_id, user_id, emoji, created_at) VALUES "
               "(:c, :u, :e, :now) ON CONFLICT (comment_id, user_id, emoji) DO NOTHING",
        soci::use(comment_id), soci::use(user_id), soci::use(emoji), soci::use(now);
}

void remove_reaction(soci::session& session, int64_t comment_id, int64_t user_id,
                     const std::string& emoji) {
    session << "DELETE FROM comment_reactions WHERE comment_id = :c AND user_id = :u AND emoji = "
               ":e",
        soci::use(comment_id), soci::use(user_id), soci::use(emoji);
}

std::vector<Reaction> reactions_of(soci::session& session,
                                   const std::vector<int64_t>& comment_ids) {
    std::vector<Reaction> reactions;
    for_each_row_of_ids(session,
                        "SELECT comment_id, user_id, emoji, created_at FROM comment_reactions "
                        "WHERE comment_id IN (SELECT CAST(value AS BIGINT) FROM {{json_rows:ids}}) "
                        "ORDER BY created_at, user_id, emoji",
                        comment_ids, [&](const soci::row& row) {
                            RowReader r(row);
                            reactions.push_back({r.int64("comment_id"), r.int64("user_id"),
                                                 r.text("emoji"), r.int64("created_at")});
                        });
    return reactions;
}

}  // namespace loupe::reviews
