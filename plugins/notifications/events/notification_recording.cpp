#include "events/notification_recording.hpp"

#include <utility>
#include <vector>

#include "store/notification_preferences.hpp"
#include "store/pending_notifications.hpp"

namespace loupe::notifications {

std::string actor_name_of(Host& host, std::optional<int64_t> user_id) {
    if (user_id) {
        if (const auto user = host.identity().find_user(*user_id)) {
            return user->name.empty() ? user->slug : user->name;
        }
    }
    return "Someone";
}

std::string build_page_url(Host& host, const Project& project, int64_t number) {
    return host.public_url() + "/" + project.account_slug + "/" + project.name + "/builds/" +
           std::to_string(number);
}

std::string test_page_url(Host& host, const Project& project, const std::string& test_public_id) {
    return host.public_url() + "/" + project.account_slug + "/" + project.name + "/tests/" +
           test_public_id;
}

std::string media_page_url(Host& host, const Project& project, int64_t media_id) {
    return host.public_url() + "/" + project.account_slug + "/" + project.name + "/media/" +
           std::to_string(media_id);
}

void record_for_recipients(Host& host, const NotificationSender& sender,
                           const EventDelivery& delivery, const Project& project,
                           NotificationItem item,
                           const std::map<int64_t, std::string>& recipients) {
    auto& identity = host.identity();
    std::vector<std::pair<int64_t, std::string>> allowed;
    for (const auto& [user_id, kind] : recipients) {
        // Someone who cannot see the project is mailed nothing of it.
        if (identity.find_user(user_id) && identity.permissions(user_id, project).view) {
            allowed.emplace_back(user_id, kind);
        }
    }
    if (allowed.empty()) {
        return;
    }
    host.db().transaction([&](soci::session& session) {
        for (const auto& [user_id, kind] : allowed) {
            if (!kind_enabled(session, user_id, "all") || !kind_enabled(session, user_id, kind)) {
                continue;
            }
            item.kind = kind;
            if (add_pending(session, delivery.event.id, user_id, kind, to_payload(item),
                            now_ms())) {
                sender.schedule(session, user_id);
            }
        }
    });
}

}  // namespace loupe::notifications
