#pragma once

#include "loupe/host.hpp"
#include "settings/mail_settings.hpp"

namespace loupe::notifications {

/// GET/PATCH /_loupe/notifications/settings: the signed-in user's kinds of mail.
void add_settings_routes(Host& host, const MailSettings& settings);
/// GET/POST /_loupe/notifications/unsubscribe?token=…: the signed one-click unsubscribe.
void add_unsubscribe_routes(Host& host);

}  // namespace loupe::notifications
