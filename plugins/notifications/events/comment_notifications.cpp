#include "events/comment_notifications.hpp"

#include <algorithm>
#include <map>
#include <string>

#include "loupe/reviews/events.hpp"
#include "message/digest_message.hpp"
#include "message/document_text.hpp"
#include "store/notification_preferences.hpp"
#include "store/pending_notifications.hpp"

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
            auto& identity = host.identity();
            const auto project = identity.find_project(comment.project_id);
            if (!project) {
                return;  // deleted since
            }
            NotificationItem item;
            item.actor_name = "Someone";
            if (comment.author_id) {
                if (const auto author = identity.find_user(*comment.author_id)) {
                    item.actor_name = author->name.empty() ? author->slug : author->name;
                }
            }
            item.project = project->account_slug + "/" + project->name;
            item.build_number = comment.build_number;
            item.url = host.public_url() + "/" + project->account_slug + "/" + project->name +
                       "/builds/" + std::to_string(comment.build_number);
            item.body = document_plain_text(comment.body);
            std::vector<std::pair<int64_t, std::string>> allowed;
            for (const auto& [user_id, kind] : recipients) {
                // A mention of someone who cannot see the project mails them nothing of it.
                if (identity.find_user(user_id) && identity.permissions(user_id, *project).view) {
                    allowed.emplace_back(user_id, kind);
                }
            }
            host.db().transaction([&](soci::session& session) {
                for (const auto& [user_id, kind] : allowed) {
                    if (!kind_enabled(session, user_id, "all") ||
                        !kind_enabled(session, user_id, kind)) {
                        continue;
                    }
                    item.kind = kind;
                    if (add_pending(session, delivery.event.id, user_id, kind, to_payload(item),
                                    now_ms())) {
                        sender.schedule(session, user_id);
                    }
                }
            });
        });
}

}  // namespace loupe::notifications
