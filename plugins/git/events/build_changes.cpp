#include "events/build_changes.hpp"

#include <memory>

#include "loupe/builds/events.hpp"
#include "loupe/reviews/events.hpp"

namespace loupe::git {

void subscribe_to_build_changes(Host& host, builds::BuildsService& builds, const std::string& name,
                                int max_attempts, BuildChangeObserver observer) {
    auto& database = host.db();
    // Shared by the four handlers; lives as long as the subscriber's job handlers.
    auto note = std::make_shared<std::function<void(int64_t, BuildChange)>>(
        [&database, &builds, observer = std::move(observer)](int64_t build_id, BuildChange change) {
            database.transaction([&](soci::session& session) {
                if (auto build = builds.find_build_by_id(session, build_id)) {
                    observer(session, change, *build);
                }
            });
        });
    SubscriberOptions options;
    options.max_attempts = max_attempts;
    host.events()
        .subscriber(name, options)
        .on<builds::BuildCreated>(
            [note](const builds::BuildCreated& created, const EventDelivery&) {
                (*note)(created.build.id, BuildChange::created);
            })
        .on<builds::BuildConcluded>(
            [note](const builds::BuildConcluded& concluded, const EventDelivery&) {
                (*note)(concluded.build.id, BuildChange::concluded);
            })
        .on<builds::BuildFailed>([note](const builds::BuildFailed& failed, const EventDelivery&) {
            (*note)(failed.build.id, BuildChange::failed);
        })
        .on<reviews::BuildReviewStateChanged>(
            [note](const reviews::BuildReviewStateChanged& changed, const EventDelivery&) {
                (*note)(changed.build.id, BuildChange::review_changed);
            });
}

}  // namespace loupe::git
