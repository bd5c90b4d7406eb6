// The Project resource (reference §4.2).
#include "identity/identity_store.hpp"
#include "identity/sql_row.hpp"

namespace loupe {
namespace {

/// The settings the Project struct does not carry, with the reference §3.11 defaults.
struct ProjectExtras {
    std::string summary_check = "auto";
    bool pr_comment_enabled = true;
    bool github_actions_oidc_enabled = false;
    std::string deployment_auth = "domain-private";
};

ProjectExtras load_extras(Database& database, int64_t project_id) {
    ProjectExtras extras;
    auto session = database.session();
    soci::row row;
    *session << "SELECT summary_check, pr_comment_enabled, github_actions_oidc_enabled, "
                "deployment_auth FROM projects WHERE id = :id",
        soci::use(project_id), soci::into(row);
    if (session->got_data()) {
        ColumnCursor read(row);
        extras.summary_check = read.text();
        extras.pr_comment_enabled = read.flag();
        extras.github_actions_oidc_enabled = read.flag();
        extras.deployment_auth = read.text();
    }
    return extras;
}

Json optional_text(const std::optional<std::string>& text) {
    return text ? Json(*text) : Json(nullptr);
}

}  // namespace

Json IdentityStore::project_json(const Project& project) {
    const ProjectExtras extras = load_extras(database_, project.id);
    const Json auto_ignore = project.auto_ignore_changes > 0
                                 ? Json{{"changes", project.auto_ignore_changes}}
                                 : Json(nullptr);
    return Json{
        {"id", std::to_string(project.id)},
        {"account", {{"id", std::to_string(project.account_id)}, {"slug", project.account_slug}}},
        {"name", project.name},
        {"defaultBaseBranch", project.default_base_branch},
        // No linked repository gives Loupe access to its content: the CLI computes
        // referenceCommit and parentCommits itself.
        {"hasRemoteContentAccess", false},
        {"autoApprovedBranchGlob",
         project.auto_approved_branch_glob.value_or(project.default_base_branch)},
        {"deploymentProductionBranchGlob",
         project.deployment_production_branch_glob.value_or("main")},
        {"private", project.is_private},
        {"summaryCheck", extras.summary_check},
        {"prCommentEnabled", extras.pr_comment_enabled},
        {"githubActionsOidcEnabled", extras.github_actions_oidc_enabled},
        {"tokenlessAuthEnabled", project.tokenless_auth_enabled},
        {"deploymentEnabled", project.deployment_enabled},
        {"deploymentAuth", extras.deployment_auth},
        {"defaultUserLevel", optional_text(project.default_user_level)},
        {"ignoreConfig", {{"enabled", project.ignore_enabled}, {"autoIgnore", auto_ignore}}},
    };
}

}  // namespace loupe
