// POST /projects/{owner}/{project}/transfer: moves a project to another account, under its name
// or a new one. The caller administers the project (the route's guard) and the account that
// receives it, which their token's scope must reach; the name must be free there. Builds,
// tokens and settings go with the project; its URLs change with its owner.
#include <soci/soci.h>

#include <set>

#include "loupe/http/json_reader.hpp"
#include "loupe/text/strings.hpp"
#include "routes/routes.hpp"
#include "store/team_audit.hpp"

namespace loupe::auth {
namespace {

struct TransferInput {
    std::string target_slug;
    std::optional<std::string> name;
};

TransferInput read_transfer_input(Request& request) {
    Validation validation;
    JsonReader body(object_body(request), validation);
    TransferInput input;
    if (auto target = body.string("targetAccountSlug", true, 1)) {
        input.target_slug = *target;
    }
    if (auto name = body.string("name", false)) {
        input.name = std::string(trim(*name));
        if (auto problem = project_name_problem(*input.name)) {
            validation.add("name", *problem);
        }
    }
    validation.throw_if_any();
    return input;
}

}  // namespace

void add_transfer_project(Host& host) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add_validated(
        Method::post, "/projects/{owner}/{project}/transfer", AuthRequirement::personal_token,
        RouteAccess::project(ProjectPermission::admin,
                             "You are not an administrator of this project."),
        read_transfer_input, [&identity, &database](Request& request, const TransferInput& input) {
            const Project& project = request.access().require_project();
            // 401 when the token's scope does not reach the target, 404 when there is none.
            const Account target =
                identity.authorize_account(request.principal(), input.target_slug);
            if (!identity.can_administer(request.principal().user_id, target)) {
                throw HttpError::forbidden("You are not an administrator of " + target.slug + ".");
            }
            const std::string name = input.name.value_or(project.name);
            const Project moved = database.transaction([&](soci::session& session) {
                Project result = identity.transfer_project(session, project, target, name);
                // Both accounts' trails: one lost the project, the other gained it.
                const std::string from = project.account_slug + "/" + project.name;
                const std::string to = target.slug + "/" + result.name;
                for (const int64_t account_id : std::set<int64_t>{project.account_id, target.id}) {
                    team_audit::record(session,
                                       {.account_id = account_id,
                                        .actor_user_id = request.principal().user_id,
                                        .action = "project.transfer",
                                        .subject_user_id = std::nullopt,
                                        .before = from,
                                        .after = to},
                                       now_ms());
                }
                return result;
            });
            return Response::json(identity.project_json(moved));
        });
}

}  // namespace loupe::auth
