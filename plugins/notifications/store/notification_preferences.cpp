#include "store/notification_preferences.hpp"

#include <soci/soci.h>

#include "loupe/crypto/random.hpp"
#include "loupe/db/row_reader.hpp"
#include "loupe/json.hpp"

namespace loupe::notifications {

bool kind_enabled(soci::session& session, int64_t user_id, const std::string& kind) {
    soci::indicator indicator = soci::i_null;
    int enabled = 1;
    session << "SELECT enabled FROM notification_preferences WHERE user_id = :u AND kind = :k",
        soci::use(user_id), soci::use(kind), soci::into(enabled, indicator);
    return indicator != soci::i_ok || enabled != 0;
}

void set_kind_enabled(soci::session& session, int64_t user_id, const std::string& kind,
                      bool enabled, int64_t now) {
    const int flag = enabled ? 1 : 0;
    session << "INSERT INTO notification_preferences (user_id, kind, enabled, updated_at) "
               "VALUES (:u, :k, :e, :t) ON CONFLICT (user_id, kind) "
               "DO UPDATE SET enabled = excluded.enabled, updated_at = excluded.updated_at",
        soci::use(user_id), soci::use(kind), soci::use(flag), soci::use(now);
}

std::map<std::string, bool> explicit_preferences(soci::session& session, int64_t user_id) {
    std::map<std::string, bool> preferences;
    soci::rowset<soci::row> rows =
        (session.prepare << "SELECT kind, enabled FROM notification_preferences WHERE user_id = :u",
         soci::use(user_id));
    for (const auto& row : rows) {
        RowReader read(row);
        preferences[read.text("kind")] = read.flag("enabled");
    }
    return preferences;
}

std::string unsubscribe_secret(soci::session& session) {
    const std::string candidate = crypto::random_hex(32);
    const int64_t now = now_ms();
    session << "INSERT INTO notification_secrets (id, secret, created_at) VALUES (1, :s, :t) "
               "ON CONFLICT (id) DO NOTHING",
        soci::use(candidate), soci::use(now);
    std::string secret;
    session << "SELECT secret FROM notification_secrets WHERE id = 1", soci::into(secret);
    return secret;
}

}  // namespace loupe::notifications
