#pragma once
// Turns review events into pending notifications:
//   - review.requested: each user newly asked to review the build (kind "review_request");
//   - review.submitted: an approval or a change request made by a person (not one carried
//     forward automatically) tells the build's followers (kind "build_review"), never the
//     reviewer.
// As for comments: never a user who cannot see the project or turned the kind off, one row per
// (event, recipient).

#include "delivery/notification_sender.hpp"
#include "loupe/host.hpp"

namespace loupe::notifications {

void subscribe_to_reviews(Host& host, const NotificationSender& sender);

}  // namespace loupe::notifications
