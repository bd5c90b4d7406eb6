#include "events/build_status_notifications.hpp"

#include <map>
#include <string>

#include "events/notification_recording.hpp"
#include "loupe/builds/events.hpp"
#include "loupe/reviews/build_followers.hpp"
#include "message/digest_message.hpp"

namespace loupe::notifications {

void subscribe_to_build_statuses(Host& host, const NotificationSender& sender) {
    auto* followers = host.services().find<reviews::BuildFollowers>();
    if (followers == nullptr) {
        return;
    }
    host.events()
        .subscriber("notifications.build_statuses")
        .on<builds::BuildConcluded>([&host, &sender, followers](
                                        const builds::BuildConcluded& concluded,
                                        const EventDelivery& delivery) {
            std::map<int64_t, std::string> recipients;
            {
                auto session = host.db().session();
                for (const auto user_id : followers->followers(*session, concluded.build.id)) {
                    recipients[user_id] = "build_status";
                }
            }
            if (recipients.empty()) {
                return;
            }
            const auto project = host.identity().find_project(concluded.build.project_id);
            if (!project) {
                return;  // deleted since
            }
            NotificationItem item;
            item.actor_name = "Loupe";
            item.project = project->account_slug + "/" + project->name;
            item.build_number = concluded.build.number;
            item.url = build_page_url(host, *project, concluded.build.number);
            item.decision = std::string(builds::to_text(concluded.conclusion));
            record_for_recipients(host, sender, delivery, *project, std::move(item), recipients);
        });
}

}  // namespace loupe::notifications
