#pragma once
// Which team.invited events were mailed (notification_invite_mails), so that a redelivered
// event sends nothing twice.

#include <cstdint>
#include <string>

namespace soci {
class session;
}

namespace loupe::notifications {

bool invite_mail_sent(soci::session& session, const std::string& event_id);
/// Records the event as mailed; a second record of the same event changes nothing.
void record_invite_mail(soci::session& session, const std::string& event_id, int64_t invite_id,
                        int64_t now);

}  // namespace loupe::notifications
