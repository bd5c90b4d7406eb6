#include "events/comment_notifications.hpp"

#include <map>
#include <string>
#include <utility>

#include "events/notification_recording.hpp"
#include "loupe/reviews/events.hpp"
#include "message/digest_message.hpp"
#include "message/document_text.hpp"

namespace loupe::notifications {
namespace {

/// Who hears of the comment, and why: a mention wins over following the thread.
std::map<int64_t, std::string> recipients_of(const reviews::CommentCreated& comment) {
    std::map<int64_t, std::string> recipients;
    for (const auto user_id : comment.thread_follower_ids) {
        recipients[user_id] = "reply";
    }
    for (const auto user_id : comment.mentioned_user_ids) {
        recipients[user_id] = "mention";
    }
    if (comment.author_id) {
        recipients.erase(*comment.author_id);
    }
    return recipients;
}

}  // namespace

void subscribe_to_comments(Host& host, const NotificationSender& sender) {
    host.events()
        .subscriber("notifications.comments")
        .on<reviews::CommentCreated>([&host, &sender](const reviews::CommentCreated& comment,
                                                      const EventDelivery& delivery) {
            const auto recipients = recipients_of(comment);
            if (recipients.empty()) {
                return;
            }
            const auto project = host.identity().find_project(comment.project_id);
            if (!project) {
                return;  // deleted since
            }
            NotificationItem item;
            item.actor_name = actor_name_of(host, comment.author_id);
            item.project = project->account_slug + "/" + project->name;
            item.build_number = comment.build_number;
            item.url = build_page_url(host, *project, comment.build_number);
            item.body = document_plain_text(comment.body);
            record_for_recipients(host, sender, delivery, *project, std::move(item), recipients);
        });
}

}  // namespace loupe::notifications
