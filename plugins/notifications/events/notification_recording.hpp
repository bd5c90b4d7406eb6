#pragma once
// What every event that mails people shares: who acted, the build's page, and recording one
// pending notification per recipient who may hear of it (sees the project, has not turned the
// kind or all mail off). One row per (event, recipient), so a redelivered event adds nothing.

#include <cstdint>
#include <map>
#include <optional>
#include <string>

#include "delivery/notification_sender.hpp"
#include "loupe/host.hpp"
#include "message/digest_message.hpp"

namespace loupe::notifications {

/// The user's display name (their slug when they have none); "Someone" for no or a deleted user.
std::string actor_name_of(Host& host, std::optional<int64_t> user_id);

/// The review page of the project's build `number`.
std::string build_page_url(Host& host, const Project& project, int64_t number);
/// The page of the project's test `test_public_id`.
std::string test_page_url(Host& host, const Project& project, const std::string& test_public_id);
/// The page of the project's media `media_id` (the media plugin's).
std::string media_page_url(Host& host, const Project& project, int64_t media_id);

/// Records `item` (its kind set per recipient) for each of `recipients` (user id → kind) who
/// still exists, can see `project` and has the kind enabled, and schedules their mail.
void record_for_recipients(Host& host, const NotificationSender& sender,
                           const EventDelivery& delivery, const Project& project,
                           NotificationItem item, const std::map<int64_t, std::string>& recipients);

}  // namespace loupe::notifications
