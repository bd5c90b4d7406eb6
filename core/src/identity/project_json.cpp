// The Project resource: the identity fields core owns, then each plugin's settings fields.
#include <soci/soci.h>

#include "identity/identity_rows.hpp"
#include "identity/identity_store.hpp"
#include "identity/project_core_fields.hpp"

namespace loupe {
namespace {

Json core_fields(const Project& project) {
    return Json{
        {"id", std::to_string(project.id)},
        {"account", {{"id", std::to_string(project.account_id)}, {"slug", project.account_slug}}},
        {"name", project.name},
        {"defaultBaseBranch", project.default_base_branch},
        // No linked repository gives Loupe access to its content: the CLI computes
        // referenceCommit and parentCommits itself.
        {"hasRemoteContentAccess", false},
        {"private", project.is_private},
        {"defaultUserLevel",
         project.default_user_level ? Json(*project.default_user_level) : Json(nullptr)},
    };
}

}  // namespace

void IdentityStore::set_project_field_writers(std::vector<ProjectFieldsWriter> writers) {
    project_field_writers_ = std::move(writers);
}

void IdentityStore::set_project_field_setters(std::map<std::string, ProjectFieldSetter> setters) {
    project_field_setters_ = std::move(setters);
}

bool IdentityStore::is_changeable_project_field(const std::string& field) {
    return core_project_field_setters().contains(field) || project_field_setters_.contains(field);
}

void IdentityStore::change_project_field(soci::session& session, const Project& project,
                                         const std::string& field, const Json& value) {
    const auto& core_setters = core_project_field_setters();
    if (const auto core_setter = core_setters.find(field); core_setter != core_setters.end()) {
        core_setter->second(session, project, value);
        return;
    }
    const auto setter = project_field_setters_.find(field);
    if (setter == project_field_setters_.end()) {
        throw std::invalid_argument("no plugin lets the project field \"" + field +
                                    "\" be changed");
    }
    setter->second(session, project, value);
}

Json IdentityStore::project_json(const Project& project) {
    return std::move(projects_json({project}).front());
}

Json IdentityStore::project_json_in(soci::session& session, int64_t project_id) {
    const auto project = identity_rows::project_by_id(session, project_id);
    if (!project) {
        return nullptr;
    }
    std::vector<Json> resources{core_fields(*project)};
    for (const auto& writer : project_field_writers_) {
        writer(session, {*project}, resources);
    }
    return std::move(resources.front());
}

std::vector<Json> IdentityStore::projects_json(const std::vector<Project>& projects) {
    std::vector<Json> resources;
    resources.reserve(projects.size());
    for (const auto& project : projects) {
        resources.push_back(core_fields(project));
    }
    if (!project_field_writers_.empty() && !projects.empty()) {
        auto session = database_.session();
        for (const auto& writer : project_field_writers_) {
            writer(*session, projects, resources);
        }
    }
    return resources;
}

}  // namespace loupe
