#pragma once
// Mails each team invite to its address (team.invited from the auth plugin) as soon as it is
// made: not batched, not subject to the recipient's preferences (they asked for nothing yet,
// and may have no account), never twice for one event.

#include "loupe/host.hpp"
#include "settings/mail_settings.hpp"

namespace loupe::notifications {

/// Subscribes "notifications.invites" (install() only; mail must be configured).
void subscribe_to_invites(Host& host, const MailSettings& settings);

}  // namespace loupe::notifications
