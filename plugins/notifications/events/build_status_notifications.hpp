#pragma once
// Tells a build's followers (the reviews plugin's reviews::BuildFollowers) when it concludes:
// "acme/web build #12 has changes to review" or "has no changes" (kind "build_status"), one row
// per (event, recipient), never a user who cannot see the project or turned the kind off.
// Without the reviews plugin's service, nothing subscribes.

#include "delivery/notification_sender.hpp"
#include "loupe/host.hpp"

namespace loupe::notifications {

void subscribe_to_build_statuses(Host& host, const NotificationSender& sender);

}  // namespace loupe::notifications
