// The reviews plugin: reviews of builds (approve, reject, comment, dismiss), the review state
// they give a build, approvals carried forward to later builds of a branch (on the event
// build.concluded), comments, and the events about them (loupe/reviews/events.hpp).
#include "loupe/plugin.hpp"

#include "auto_approval.hpp"
#include "loupe/builds/build_deletion.hpp"
#include "loupe/builds/build_review_states.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/builds/events.hpp"
#include "loupe/builds/project_tests.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "media_comments_service.hpp"
#include "migrations.hpp"
#include "routes/routes.hpp"
#include "store/build_followers_service.hpp"
#include "store/build_rows.hpp"

namespace {

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    using namespace loupe::reviews;
    auto& builds = host.services().require<loupe::builds::BuildsService>();
    auto& recorder = host.make<ReviewRecorder>(
        builds, host.services().require<loupe::builds::BuildReviewStates>(), host.events());
    add_migrations(host.migrations());
    add_create_review(host, builds, recorder);
    add_list_reviews(host, builds);
    add_dismiss_review(host, builds, recorder);
    const auto kinds =
        comment_place_kinds(host, builds, host.services().find<loupe::builds::ProjectTests>());
    add_create_comment(host, builds, recorder, kinds);
    add_read_comments(host, kinds);
    add_edit_comment(host, kinds);
    add_comment_reactions(host, kinds);
    add_comment_threads(host, kinds);
    for (const auto& kind : kinds) {
        if (kind.kind == CommentSubject::Kind::test) {
            add_test_subscription(host, kind);
        }
    }
    add_build_subscription(host, builds);
    add_build_reviewers(host, builds, recorder);
    add_waiting_reviews(host, builds);
    host.services().provide<MediaComments>(host.make<MediaCommentsService>(builds, recorder));
    host.services().provide<BuildFollowers>(host.make<BuildFollowersService>());
    auto& database = host.db();
    host.events()
        .subscriber("reviews.carry_approvals")
        .on<loupe::builds::BuildConcluded>(
            [&database, &builds, &recorder](const loupe::builds::BuildConcluded& concluded,
                                            const loupe::EventDelivery&) {
                database.transaction([&](soci::session& session) {
                    if (auto build = builds.lock_build(session, concluded.build.id)) {
                        carry_approvals_forward(session, builds, recorder, *build);
                    }
                });
            });
    // Retention deleting builds: their reviews and comments go with them.
    if (auto* deletion = host.services().find<loupe::builds::BuildDeletion>()) {
        deletion->observe([](soci::session& session, const loupe::builds::DeletedBuilds& deleted) {
            return delete_rows_of_builds(session, deleted.build_ids);
        });
    }
}

}  // namespace

LOUPE_PLUGIN("reviews", LOUPE_VERSION, LOUPE_REQUIRES("builds"), install)
