// PATCH /projects/{owner}/{project}: changes the fields present in the body (absent ones stay
// as they are; null restores a nullable field's default), each through the owner of the field
// (core for the identity fields, the plugins for their settings), all in one transaction with
// the row of the account's trail that records what changed.
// Fields no one lets change are ignored, as Argos ignores keys its schema does not know.
#include <soci/soci.h>

#include "loupe/http/json_reader.hpp"
#include "routes/routes.hpp"
#include "store/team_audit.hpp"

namespace loupe::auth {
namespace {

/// One `project.update` row in the account's trail with the fields that changed, before and
/// after, each a JSON object that also names the project; nothing when nothing changed.
void record_project_update(soci::session& session, const Project& project, int64_t actor_user_id,
                           const Json& before, const Json& after) {
    Json old_values = Json::object();
    Json new_values = Json::object();
    for (const auto& [field, value] : after.items()) {
        if (!before.contains(field) || before[field] != value) {
            old_values[field] = before.contains(field) ? before[field] : Json();
            new_values[field] = value;
        }
    }
    if (new_values.empty()) {
        return;
    }
    old_values["project"] = before.value("name", project.name);
    new_values["project"] = after.value("name", project.name);
    team_audit::record(
        session,
        {.account_id = project.account_id,
         .actor_user_id = actor_user_id != 0 ? std::optional(actor_user_id) : std::nullopt,
         .action = "project.update",
         .subject_user_id = std::nullopt,
         .before = old_values.dump(),
         .after = new_values.dump()},
        now_ms());
}

}  // namespace

void add_update_project(Host& host) {
    auto& identity = host.identity();
    auto& database = host.db();
    host.routes().add(
        Method::patch, "/projects/{owner}/{project}", AuthRequirement::project_or_personal_token,
        RouteAccess::project(ProjectPermission::admin,
                             "You are not an administrator of this project."),
        [&identity, &database](Request& request) {
            const Json& body = object_body(request);
            const Project& project = request.access().require_project();
            database.transaction([&](soci::session& session) {
                const Json before = identity.project_json_in(session, project.id);
                for (const auto& [field, value] : body.items()) {
                    if (identity.is_changeable_project_field(field)) {
                        identity.change_project_field(session, project, field, value);
                    }
                }
                record_project_update(session, project, request.principal().user_id, before,
                                      identity.project_json_in(session, project.id));
            });
            const auto changed = identity.find_project(project.id);
            if (!changed) {
                throw HttpError::not_found("Not found");
            }
            return Response::json(identity.project_json(*changed));
        });
}

}  // namespace loupe::auth
