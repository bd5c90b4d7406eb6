#include "events/comment_notifications.hpp"

#include <functional>
#include <map>
#include <string>
#include <utility>

#include "events/notification_recording.hpp"
#include "loupe/reviews/events.hpp"
#include "message/digest_message.hpp"
#include "message/document_text.hpp"

namespace loupe::notifications {
namespace {

/// Who hears of the comment, and why: a mention wins over following the thread, which wins
/// over following the test.
template <class Event>
std::map<int64_t, std::string> recipients_of(const Event& comment,
                                             const std::vector<int64_t>& test_follower_ids = {}) {
    std::map<int64_t, std::string> recipients;
    for (const auto user_id : test_follower_ids) {
        recipients[user_id] = "test_comment";
    }
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

/// Records the comment for its recipients; `place` names what it is posted on (a build or a
/// test of `project`) in the item.
template <class Event>
void record_comment(Host& host, const NotificationSender& sender, const EventDelivery& delivery,
                    const Event& comment, const std::map<int64_t, std::string>& recipients,
                    const std::function<void(const Project&, NotificationItem&)>& place) {
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
    item.body = document_plain_text(comment.body);
    place(*project, item);
    record_for_recipients(host, sender, delivery, *project, std::move(item), recipients);
}

}  // namespace

void subscribe_to_comments(Host& host, const NotificationSender& sender) {
    host.events()
        .subscriber("notifications.comments")
        .on<reviews::CommentCreated>([&host, &sender](const reviews::CommentCreated& comment,
                                                      const EventDelivery& delivery) {
            record_comment(host, sender, delivery, comment, recipients_of(comment),
                           [&](const Project& project, NotificationItem& item) {
                               item.build_number = comment.build_number;
                               item.url = build_page_url(host, project, comment.build_number);
                           });
        });
    host.events()
        .subscriber("notifications.test_comments")
        .on<reviews::TestCommentCreated>(
            [&host, &sender](const reviews::TestCommentCreated& comment,
                             const EventDelivery& delivery) {
                record_comment(host, sender, delivery, comment,
                               recipients_of(comment, comment.test_follower_ids),
                               [&](const Project& project, NotificationItem& item) {
                                   item.test_name = comment.test_name;
                                   item.url = test_page_url(host, project, comment.test_public_id);
                               });
            });
    host.events()
        .subscriber("notifications.media_comments")
        .on<reviews::MediaCommentCreated>(
            [&host, &sender](const reviews::MediaCommentCreated& comment,
                             const EventDelivery& delivery) {
                record_comment(host, sender, delivery, comment, recipients_of(comment),
                               [&](const Project& project, NotificationItem& item) {
                                   item.media_name = comment.media_name;
                                   item.url = media_page_url(host, project, comment.media_id);
                               });
            });
}

}  // namespace loupe::notifications
