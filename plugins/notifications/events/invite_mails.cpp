#include "events/invite_mails.hpp"

#include "loupe/auth/events.hpp"
#include "loupe/auth/invite_mail_links.hpp"
#include "mail/message_id.hpp"
#include "mail/smtp_mailer.hpp"
#include "message/invite_message.hpp"
#include "store/invite_mails.hpp"

namespace loupe::notifications {

void subscribe_to_invites(Host& host, const MailSettings& settings) {
    auto* links = host.services().find<auth::InviteMailLinks>();
    if (links == nullptr) {
        return;  // no auth plugin: no invites
    }
    host.events()
        .subscriber("notifications.invites", {.max_attempts = 6, .on_give_up = {}})
        .on<auth::TeamInvited>(
            [&host, links, mailer = SmtpMailer(settings)](const auth::TeamInvited& invited,
                                                          const EventDelivery& delivery) {
                const std::string& event_id = delivery.event.id;
                if (host.db().transaction([&](soci::session& session) {
                        return invite_mail_sent(session, event_id);
                    })) {
                    return;
                }
                // A link of its own for this mail; none once the invite was accepted, cancelled or
                // refreshed (a refresh publishes its own event) or expired.
                const auto link = links->issue(invited.invite_id);
                if (!link || link->email != invited.email) {
                    return;
                }
                const DigestMessage message = build_invite_message(*link);
                mailer.send(OutgoingMail{.to = link->email,
                                         .subject = message.subject,
                                         .text = message.text,
                                         .html = message.html,
                                         .message_id = new_message_id(host.public_url()),
                                         .unsubscribe_url = {}});
                host.db().transaction([&](soci::session& session) {
                    record_invite_mail(session, event_id, invited.invite_id, now_ms());
                });
            });
}

}  // namespace loupe::notifications
