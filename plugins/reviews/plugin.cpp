// The reviews plugin: reviews of builds (approve, reject, comment, dismiss), the review state
// they give a build, approvals carried forward to later builds of a branch, and comments.
#include "loupe/plugin.hpp"

#include "auto_approval.hpp"
#include "loupe/builds/build_deletion.hpp"
#include "loupe/builds/builds_service.hpp"
#include "loupe/host.hpp"
#include "loupe/http/api_description.hpp"
#include "migrations.hpp"
#include "routes/routes.hpp"
#include "store/build_rows.hpp"

namespace {

void install(loupe::Host& host) {
    loupe::describe_api(host.services(), loupe::embedded_api_description());
    using namespace loupe::reviews;
    auto& builds = host.services().require<loupe::builds::BuildsService>();
    add_migrations(host.migrations());
    add_create_review(host, builds);
    add_list_reviews(host, builds);
    add_dismiss_review(host, builds);
    add_create_comment(host, builds);
    add_read_comments(host, builds);
    add_edit_comment(host, builds);
    add_comment_reactions(host, builds);
    add_comment_threads(host, builds);
    add_build_subscription(host, builds);
    add_build_reviewers(host, builds);
    builds.observe([&builds](soci::session& session, loupe::builds::BuildEvent event,
                             const loupe::builds::BuildSummary& build) {
        if (event == loupe::builds::BuildEvent::concluded) {
            carry_approvals_forward(session, builds, build);
        }
    });
    // Retention deleting builds: their reviews and comments go with them.
    if (auto* deletion = host.services().find<loupe::builds::BuildDeletion>()) {
        deletion->observe([](soci::session& session, const loupe::builds::DeletedBuilds& deleted) {
            return delete_rows_of_builds(session, deleted.build_ids);
        });
    }
}

}  // namespace

LOUPE_PLUGIN("reviews", LOUPE_VERSION, LOUPE_REQUIRES("auth", "builds"), install)
