#include "store/invite_mails.hpp"

#include <soci/soci.h>

namespace loupe::notifications {

bool invite_mail_sent(soci::session& session, const std::string& event_id) {
    long long count = 0;
    session << "SELECT COUNT(*) FROM notification_invite_mails WHERE event_id = :id",
        soci::use(event_id), soci::into(count);
    return count > 0;
}

void record_invite_mail(soci::session& session, const std::string& event_id, int64_t invite_id,
                        int64_t now) {
    session << "INSERT INTO notification_invite_mails (event_id, invite_id, sent_at) VALUES "
               "(:id, :invite, :now) ON CONFLICT (event_id) DO NOTHING",
        soci::use(event_id), soci::use(invite_id), soci::use(now);
}

}  // namespace loupe::notifications
