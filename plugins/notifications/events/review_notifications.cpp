#include "events/review_notifications.hpp"

#include <map>
#include <string>
#include <utility>

#include "events/notification_recording.hpp"
#include "loupe/reviews/events.hpp"
#include "message/digest_message.hpp"

namespace loupe::notifications {
namespace {

NotificationItem build_item(Host& host, const Project& project, const builds::BuildFacts& build,
                            std::optional<int64_t> actor_id) {
    NotificationItem item;
    item.actor_name = actor_name_of(host, actor_id);
    item.project = project.account_slug + "/" + project.name;
    item.build_number = build.number;
    item.url = build_page_url(host, project, build.number);
    return item;
}

void notify_requested_reviewers(Host& host, const NotificationSender& sender,
                                const reviews::ReviewRequested& requested,
                                const EventDelivery& delivery) {
    const auto project = host.identity().find_project(requested.build.project_id);
    if (!project) {
        return;  // deleted since
    }
    std::map<int64_t, std::string> recipients;
    for (const auto user_id : requested.reviewer_ids) {
        recipients[user_id] = "review_request";
    }
    if (requested.requested_by) {
        recipients.erase(*requested.requested_by);
    }
    record_for_recipients(host, sender, delivery, *project,
                          build_item(host, *project, requested.build, requested.requested_by),
                          recipients);
}

void notify_build_followers(Host& host, const NotificationSender& sender,
                            const reviews::ReviewSubmitted& review, const EventDelivery& delivery) {
    // A comment-only review mails through its comments; a carried-forward approval is no news.
    if (review.automatic || review.decision == reviews::ReviewDecision::commented) {
        return;
    }
    std::map<int64_t, std::string> recipients;
    for (const auto user_id : review.build_follower_ids) {
        recipients[user_id] = "build_review";
    }
    if (review.user_id) {
        recipients.erase(*review.user_id);
    }
    if (recipients.empty()) {
        return;
    }
    const auto project = host.identity().find_project(review.build.project_id);
    if (!project) {
        return;
    }
    auto item = build_item(host, *project, review.build, review.user_id);
    item.decision = std::string(reviews::to_text(review.decision));
    record_for_recipients(host, sender, delivery, *project, std::move(item), recipients);
}

}  // namespace

void subscribe_to_reviews(Host& host, const NotificationSender& sender) {
    host.events()
        .subscriber("notifications.reviews")
        .on<reviews::ReviewRequested>([&host, &sender](const reviews::ReviewRequested& requested,
                                                       const EventDelivery& delivery) {
            notify_requested_reviewers(host, sender, requested, delivery);
        })
        .on<reviews::ReviewSubmitted>([&host, &sender](const reviews::ReviewSubmitted& review,
                                                       const EventDelivery& delivery) {
            notify_build_followers(host, sender, review, delivery);
        });
}

}  // namespace loupe::notifications
