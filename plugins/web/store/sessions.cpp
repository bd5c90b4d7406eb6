#include "store/sessions.hpp"

#include "loupe/db/row_reader.hpp"

namespace loupe::web::sessions {

int64_t insert(soci::session& session, const NewSession& row, int64_t now) {
    int64_t token_id = row.personal_token_id.value_or(0);
    soci::indicator token_indicator = row.personal_token_id ? soci::i_ok : soci::i_null;
    long long id = 0;
    session << "INSERT INTO web_sessions (token_hash, user_id, personal_token_id, created_at, "
               "expires_at, last_seen_at, user_agent) VALUES (:hash, :user, :token, :now, "
               ":expires, :seen, :agent) RETURNING id",
        soci::use(row.token_hash), soci::use(row.user_id), soci::use(token_id, token_indicator),
        soci::use(now), soci::use(row.expires_at), soci::use(now), soci::use(row.user_agent),
        soci::into(id);
    return id;
}

std::optional<StoredSession> find_live(soci::session& session, const std::string& token_hash,
                                       int64_t now) {
    soci::row row;
    session << "SELECT id, user_id, personal_token_id, expires_at, last_seen_at FROM "
               "web_sessions WHERE token_hash = :hash AND revoked_at IS NULL AND "
               "expires_at > :now",
        soci::use(token_hash), soci::use(now), soci::into(row);
    if (!session.got_data()) {
        return std::nullopt;
    }
    const RowReader read(row);
    StoredSession stored;
    stored.id = read.int64("id");
    stored.user_id = read.int64("user_id");
    stored.personal_token_id = read.optional_int("personal_token_id");
    stored.expires_at = read.int64("expires_at");
    stored.last_seen_at = read.int64("last_seen_at");
    return stored;
}

void touch(soci::session& session, int64_t id, int64_t now) {
    session << "UPDATE web_sessions SET last_seen_at = :now WHERE id = :id", soci::use(now),
        soci::use(id);
}

bool revoke(soci::session& session, const std::string& token_hash, int64_t now) {
    soci::statement update = (session.prepare << "UPDATE web_sessions SET revoked_at = :now "
                                                 "WHERE token_hash = :hash AND revoked_at IS NULL",
                              soci::use(now), soci::use(token_hash));
    update.execute(true);
    return update.get_affected_rows() > 0;
}

int revoke_user(soci::session& session, int64_t user_id, int64_t now) {
    soci::statement update =
        (session.prepare << "UPDATE web_sessions SET revoked_at = :now WHERE user_id = :user AND "
                            "revoked_at IS NULL AND expires_at > :later",
         soci::use(now), soci::use(user_id), soci::use(now));
    update.execute(true);
    return static_cast<int>(update.get_affected_rows());
}

std::vector<SessionListing> list_live(soci::session& session, int64_t user_id, int64_t now) {
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT id, user_agent, created_at, last_seen_at, expires_at FROM "
                            "web_sessions WHERE user_id = :user AND revoked_at IS NULL AND "
                            "expires_at > :now ORDER BY last_seen_at DESC, id DESC",
         soci::use(user_id), soci::use(now));
    std::vector<SessionListing> listed;
    for (const auto& row : rows) {
        const RowReader read(row);
        SessionListing item;
        item.id = read.int64("id");
        item.user_agent = read.optional_text("user_agent").value_or("");
        item.created_at = read.int64("created_at");
        item.last_seen_at = read.int64("last_seen_at");
        item.expires_at = read.int64("expires_at");
        listed.push_back(std::move(item));
    }
    return listed;
}

bool revoke_id(soci::session& session, int64_t user_id, int64_t id, int64_t now) {
    soci::statement update =
        (session.prepare << "UPDATE web_sessions SET revoked_at = :now WHERE id = :id AND "
                            "user_id = :user AND revoked_at IS NULL AND expires_at > :later",
         soci::use(now), soci::use(id), soci::use(user_id), soci::use(now));
    update.execute(true);
    return update.get_affected_rows() == 1;
}

int revoke_others(soci::session& session, int64_t user_id, std::optional<int64_t> keep_id,
                  int64_t now) {
    const int64_t keep = keep_id.value_or(0);  // ids start at 1: 0 keeps none
    soci::statement update =
        (session.prepare << "UPDATE web_sessions SET revoked_at = :now WHERE user_id = :user AND "
                            "id <> :keep AND revoked_at IS NULL AND expires_at > :later",
         soci::use(now), soci::use(user_id), soci::use(keep), soci::use(now));
    update.execute(true);
    return static_cast<int>(update.get_affected_rows());
}

void delete_stale(soci::session& session, int64_t before) {
    session << "DELETE FROM web_sessions WHERE expires_at < :before OR revoked_at < :revoked",
        soci::use(before), soci::use(before);
}

}  // namespace loupe::web::sessions
