#pragma once
// The web_login_links rows: one-time sign-in links, stored as the SHA-256 of their token.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>

namespace loupe::web::login_links {

void insert(soci::session& session, const std::string& token_hash, int64_t user_id,
            int64_t expires_at, int64_t now);
/// Marks the link used and returns its user, in one statement, so two uses of the same link
/// cannot both succeed; nullopt when it is unknown, used or expired.
std::optional<int64_t> consume(soci::session& session, const std::string& token_hash, int64_t now);
/// Deletes links that expired before `before`.
void delete_expired(soci::session& session, int64_t before);

}  // namespace loupe::web::login_links
