#pragma once
// Turns each published comment into pending notifications: the users it mentions (kind
// "mention"), for a reply the users who follow its thread (kind "reply"), and for a comment on
// a test the users who follow the test (kind "test_comment"); a mention wins over a reply,
// which wins over following the test. Never its author, never a user who cannot see the
// project, never a kind the user turned off. One row per (event, recipient), so a redelivered
// event adds nothing.

#include "delivery/notification_sender.hpp"
#include "loupe/host.hpp"

namespace loupe::notifications {

void subscribe_to_comments(Host& host, const NotificationSender& sender);

}  // namespace loupe::notifications
