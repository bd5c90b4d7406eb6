// DELETE /_loupe/projects/{owner}/{project}: deletes a project with everything about it, for
// the administrators of the account that owns it (a team's owners, a personal account's
// person); a project administrator who is only a member may not. The deletion and its row in
// the team's administration trail commit together; the files only the project used are left to
// the blob sweep.
#include <soci/soci.h>

#include "routes/routes.hpp"
#include "store/team_audit.hpp"

namespace loupe::auth {

void add_delete_project(Host& host) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add(
        Method::del, "/_loupe/projects/{owner}/{project}", AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin,
                             "You are not an administrator of this project."),
        [&identity, &database](Request& request) {
            const Project& project = request.access().require_project();
            const auto account = identity.find_account(project.account_slug);
            const int64_t user_id = request.principal().user_id;
            if (!account || !identity.can_administer(user_id, *account)) {
                throw HttpError::forbidden("Only the owners of " + project.account_slug +
                                           " delete its projects.");
            }
            database.transaction([&](soci::session& session) {
                identity.delete_project(session, project);
                team_audit::record(session,
                                   {.account_id = account->id,
                                    .actor_user_id = user_id,
                                    .action = "project.delete",
                                    .subject_user_id = std::nullopt,
                                    .before = project.name,
                                    .after = std::nullopt},
                                   now_ms());
            });
            return Response::no_content();
        });
}

}  // namespace loupe::auth
