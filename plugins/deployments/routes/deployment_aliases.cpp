#include "routes/deployment_aliases.hpp"

#include "loupe/http/http_error.hpp"
#include "site_names.hpp"
#include "store/aliases.hpp"
#include "store/settings.hpp"

namespace loupe::deployments {

std::vector<PlannedAlias> planned_aliases(const Project& project, const std::string& branch,
                                          const std::string& environment) {
    std::vector<PlannedAlias> aliases{
        {branch_alias(project.name, branch, project.account_slug),
         legacy_branch_alias(project.name, branch, project.account_slug), "branch"}};
    if (environment == "production") {
        aliases.push_back({production_alias(project.name, project.account_slug),
                           legacy_production_alias(project.name, project.account_slug),
                           "production"});
    }
    return aliases;
}

void refuse_alias_conflicts(soci::session& session, const Project& project,
                            const std::vector<PlannedAlias>& aliases) {
    for (const auto& alias : aliases) {
        const auto owner = alias_owner(session, alias.name);
        if (owner && *owner != project.id) {
            throw HttpError(409,
                            "Site name conflict: \"" + alias.name +
                                "\" already belongs to another project's deployments",
                            {"\"" + alias.name + "\" is the " + alias.type +
                             " alias this deployment would take, and another project holds it; "
                             "rename this project or the branch, or ask an administrator to "
                             "prune the other project's deployments"});
        }
    }
}

void point_aliases(soci::session& session, const Project& project,
                   const std::vector<PlannedAlias>& aliases, int64_t deployment_id) {
    bool production = false;
    for (const auto& alias : aliases) {
        upsert_alias(session, alias.name, alias.type, project.id, deployment_id);
        follow_legacy_alias(session, alias.legacy_name, alias.type, project.id, deployment_id);
        production = production || alias.type == "production";
    }
    // The project's own production name follows too; setting it made it the project's.
    if (production) {
        if (const auto name = load_settings(session, project.id).production_name) {
            upsert_alias(session, *name, "production", project.id, deployment_id);
        }
    }
}

}  // namespace loupe::deployments
