#pragma once
// What kinds of mail each user receives: every kind is on until the user turns it off.

#include <cstdint>
#include <map>
#include <string>

namespace soci {
class session;
}

namespace loupe::notifications {

bool kind_enabled(soci::session& session, int64_t user_id, const std::string& kind);
void set_kind_enabled(soci::session& session, int64_t user_id, const std::string& kind,
                      bool enabled, int64_t now);
/// The user's explicit choices, by kind.
std::map<std::string, bool> explicit_preferences(soci::session& session, int64_t user_id);

/// The server's secret for unsubscribe links, made on first use and shared by every instance.
std::string unsubscribe_secret(soci::session& session);

}  // namespace loupe::notifications
