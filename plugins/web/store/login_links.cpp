#include "store/login_links.hpp"

namespace loupe::web::login_links {

void insert(soci::session& session, const std::string& token_hash, int64_t user_id,
            int64_t expires_at, int64_t now) {
    session << "INSERT INTO web_login_links (token_hash, user_id, created_at, expires_at) VALUES "
               "(:hash, :user, :now, :expires)",
        soci::use(token_hash), soci::use(user_id), soci::use(now), soci::use(expires_at);
}

std::optional<int64_t> consume(soci::session& session, const std::string& token_hash, int64_t now) {
    long long user_id = 0;
    session << "UPDATE web_login_links SET used_at = :now WHERE token_hash = :hash AND used_at IS "
               "NULL AND expires_at > :later RETURNING user_id",
        soci::use(now), soci::use(token_hash), soci::use(now), soci::into(user_id);
    if (!session.got_data()) {
        return std::nullopt;
    }
    return user_id;
}

void delete_expired(soci::session& session, int64_t before) {
    session << "DELETE FROM web_login_links WHERE expires_at < :before", soci::use(before);
}

}  // namespace loupe::web::login_links
