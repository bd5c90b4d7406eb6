#pragma once
// The events the auth plugin publishes (loupe/events/events.hpp), each in the transaction that
// made the change.
//
//   team.invited  someone was invited to a team by email (or invited again: the earlier link
//                 stopped working); carries no secret, only the invite's id: a subscriber that
//                 mails the invite asks auth::InviteMailLinks for a link of its own

#include <cstdint>
#include <optional>
#include <string>

#include "loupe/events/events.hpp"
#include "loupe/json.hpp"

namespace loupe::auth {

struct TeamInvited {
    static constexpr const char* event_type = "team.invited";
    static constexpr int event_version = 1;
    int64_t invite_id = 0;
    int64_t account_id = 0;
    std::string email;                  ///< lower-cased
    std::string level;                  ///< owner | member | contributor
    std::optional<int64_t> invited_by;  ///< the user who invited
};

inline void to_json(Json& json, const TeamInvited& event) {
    json = Json{{"inviteId", event.invite_id},
                {"accountId", event.account_id},
                {"email", event.email},
                {"level", event.level},
                {"invitedBy", optional_json(event.invited_by)}};
}

inline void from_json(const Json& json, TeamInvited& event) {
    event.invite_id = field_or<int64_t>(json, "inviteId", 0);
    event.account_id = field_or<int64_t>(json, "accountId", 0);
    event.email = field_or<std::string>(json, "email", "");
    event.level = field_or<std::string>(json, "level", "member");
    event.invited_by = optional_field<int64_t>(json, "invitedBy");
}

}  // namespace loupe::auth
