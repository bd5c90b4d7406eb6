// The notifications plugin: mails people what needs them (mentions, replies in threads they
// follow, review requests, approvals, change requests and conclusions of builds they follow)
// through the company's SMTP server, batched per recipient, with one-click unsubscribe and
// per-user settings; and mails each team invite to its address at once.
// Without `mail.host` it records nothing and sends nothing.
#include "loupe/plugin.hpp"

#include <memory>

#include "delivery/notification_sender.hpp"
#include "events/build_status_notifications.hpp"
#include "events/comment_notifications.hpp"
#include "events/invite_mails.hpp"
#include "events/review_notifications.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "routes/routes.hpp"
#include "settings/mail_settings.hpp"
#include "store/notification_migrations.hpp"

namespace {

using namespace loupe;
using namespace loupe::notifications;

void install(Host& host) {
    describe_api(host.services(), embedded_api_description());
    const auto& settings = host.make<MailSettings>(read_mail_settings(host.global_config()));
    add_notification_migrations(host.migrations());
    add_settings_routes(host, settings);
    add_unsubscribe_routes(host);
    if (!settings.enabled()) {
        host.log().info("notifications.mail_off",
                        {{"effect", "no mail is sent: set mail.host to send notifications"}});
        return;
    }
    auto& sender = host.make<NotificationSender>(host, settings);
    sender.install();
    subscribe_to_comments(host, sender);
    subscribe_to_reviews(host, sender);
    subscribe_to_invites(host, settings);
    subscribe_to_build_statuses(host, sender);
    host.log().info("notifications.mail_on",
                    {{"host", settings.host}, {"port", std::to_string(settings.port)}});
}

}  // namespace

LOUPE_PLUGIN("notifications", LOUPE_VERSION, LOUPE_REQUIRES("auth", "reviews"), install)
