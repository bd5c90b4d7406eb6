#include "commands/admin_commands.hpp"

#include <algorithm>
#include <fstream>
#include <iostream>
#include <limits>

#include "loupe/cli/lookups.hpp"
#include "store/links.hpp"
#include "store/project_settings.hpp"

namespace loupe::git {
namespace {

using cli::CommandError;
using cli::Options;
using cli::UsageError;

int64_t positive_id(const std::string& option, const std::string& text) {
    return cli::integer_argument(text, "--" + option, 1, std::numeric_limits<int64_t>::max());
}

Json link_json(const RepositoryLink& link, const std::string& project_slug,
               const GitProjectSettings& settings) {
    Json out{{"project", project_slug},
             {"provider", provider_name(link.provider)},
             {"repository", link.repository},
             {"tokenlessAuthEnabled", settings.tokenless_auth_enabled},
             {"githubActionsOidcEnabled", settings.github_actions_oidc_enabled},
             {"gitlabCiOidcEnabled", settings.gitlab_ci_oidc_enabled},
             {"prCommentEnabled", settings.pr_comment_enabled},
             {"summaryCheck", settings.summary_check}};
    if (link.installation_id) {
        out["installationId"] = *link.installation_id;
    }
    if (link.gitlab_project_id) {
        out["gitlabProjectId"] = *link.gitlab_project_id;
    }
    if (link.token_file) {
        out["tokenFile"] = *link.token_file;
    }
    return out;
}

std::string link_text(const Json& link) {
    std::string text = link["project"].get<std::string>() + " -> " +
                       link["provider"].get<std::string>() + " " +
                       link["repository"].get<std::string>();
    if (link.contains("installationId")) {
        text += " (installation " + std::to_string(link["installationId"].get<int64_t>()) + ")";
    }
    text += link["tokenlessAuthEnabled"].get<bool>() ? ", tokenless auth on" : "";
    text += link["githubActionsOidcEnabled"].get<bool>() ? ", GitHub Actions OIDC on" : "";
    text += link["gitlabCiOidcEnabled"].get<bool>() ? ", GitLab CI OIDC on" : "";
    text += link["prCommentEnabled"].get<bool>() ? "" : ", pull request comment off";
    text += ", summary check " + link["summaryCheck"].get<std::string>();
    return text;
}

using Action = std::function<Json(Host&, const Options&)>;

struct AdminCommand {
    const char* action;
    const char* synopsis;
    cli::OptionSpec options;
    Action run;
};

Json save(Host& host, const Project& project, RepositoryLink link) {
    link.project_id = project.id;
    GitProjectSettings settings;
    host.db().transaction([&](soci::session& session) {
        save_link(session, link, now_ms());
        settings = project_settings(session, project.id);
    });
    return Json{{"linked", link_json(link, project.account_slug + "/" + project.name, settings)}};
}

Json link_github(Host& host, const Options& options) {
    const auto& repository = options.value("repo");
    if (!repository_name_fits(Provider::github, repository)) {
        throw UsageError("--repo must be OWNER/NAME (got \"" + repository + "\")");
    }
    const auto installation = positive_id("installation-id", options.value("installation-id"));
    const auto project = cli::project_option(host.identity(), options);
    RepositoryLink link;
    link.provider = Provider::github;
    link.repository = repository;
    link.installation_id = installation;
    return save(host, project, link);
}

Json link_gitlab(Host& host, const Options& options) {
    const auto& path = options.value("gitlab-project");
    if (!repository_name_fits(Provider::gitlab, path)) {
        throw UsageError("--gitlab-project must be GROUP/NAME (got \"" + path + "\")");
    }
    RepositoryLink link;
    link.provider = Provider::gitlab;
    link.repository = path;
    if (auto id = options.optional_value("gitlab-project-id")) {
        link.gitlab_project_id = positive_id("gitlab-project-id", *id);
    }
    if (auto file = options.optional_value("token-file")) {
        if (!std::ifstream(*file)) {
            throw CommandError("cannot read --token-file " + *file);
        }
        link.token_file = *file;
    }
    return save(host, cli::project_option(host.identity(), options), link);
}

Json unlink(Host& host, const Options& options) {
    const auto& slug = options.value("project");
    const auto project = cli::project_option(host.identity(), options);
    const bool removed = host.db().transaction(
        [&](soci::session& session) { return delete_link(session, project.id); });
    if (!removed) {
        throw CommandError(slug + " is not linked to a repository");
    }
    return Json{{"unlinked", slug}};
}

/// A command that turns one of the project's keyless ways in on or off.
Action toggle(const char* field, bool GitProjectSettings::*member) {
    return [field, member](Host& host, const Options& options) {
        const auto& value = options.value("enabled");
        if (value != "true" && value != "false") {
            throw UsageError("--enabled must be true or false (got \"" + value + "\")");
        }
        const auto& slug = options.value("project");
        const auto project = cli::project_option(host.identity(), options);
        host.db().transaction([&](soci::session& session) {
            auto settings = project_settings(session, project.id);
            settings.*member = value == "true";
            git_settings_table()->write(session, project.id, settings);
        });
        return Json{{"project", slug}, {field, value == "true"}};
    };
}

/// `project summary-check --mode always|never|auto`.
Json summary_check(Host& host, const Options& options) {
    const auto& mode = options.value("mode");
    const auto& choices = summary_check_choices();
    if (std::find(choices.begin(), choices.end(), mode) == choices.end()) {
        throw UsageError("--mode must be always, never or auto (got \"" + mode + "\")");
    }
    const auto project = cli::project_option(host.identity(), options);
    host.db().transaction([&](soci::session& session) {
        auto settings = project_settings(session, project.id);
        settings.summary_check = mode;
        git_settings_table()->write(session, project.id, settings);
    });
    return Json{{"project", options.value("project")}, {"summaryCheck", mode}};
}

Json links(Host& host, const Options&) {
    Json list = Json::array();
    auto session = host.db().session();
    for (const auto& link : all_links(*session)) {
        auto project = host.identity().find_project(link.project_id);
        if (project) {
            list.push_back(link_json(link, project->account_slug + "/" + project->name,
                                     project_settings(*session, link.project_id)));
        }
    }
    return Json{{"links", list}};
}

void print_text(const Json& result) {
    if (result.contains("linked")) {
        std::cout << "linked " << link_text(result["linked"]) << "\n";
    } else if (result.contains("unlinked")) {
        std::cout << "unlinked " << result["unlinked"].get<std::string>() << "\n";
    } else if (result.contains("links")) {
        for (const auto& link : result["links"]) {
            std::cout << link_text(link) << "\n";
        }
        if (result["links"].empty()) {
            std::cout << "no project is linked to a repository\n";
        }
    } else {
        for (const auto& [field, words] :
             {std::pair{"tokenlessAuthEnabled", "tokenless authentication"},
              std::pair{"githubActionsOidcEnabled", "GitHub Actions OIDC authentication"},
              std::pair{"gitlabCiOidcEnabled", "GitLab CI OIDC authentication"},
              std::pair{"prCommentEnabled", "pull request comment"}}) {
            if (result.contains(field)) {
                std::cout << result["project"].get<std::string>() << ": " << words << " "
                          << (result[field].get<bool>() ? "enabled" : "disabled") << "\n";
            }
        }
        if (result.contains("summaryCheck")) {
            std::cout << result["project"].get<std::string>() << ": summary check "
                      << result["summaryCheck"].get<std::string>() << "\n";
        }
    }
}

const std::vector<AdminCommand>& admin_commands() {
    static const std::vector<AdminCommand> all{
        {"link-github",
         "--project A/P --repo OWNER/NAME --installation-id N   (link to a GitHub repository)",
         {.command = "project link-github",
          .required = {"project", "repo", "installation-id"},
          .flags = {"json"}},
         link_github},
        {"link-gitlab",
         "--project A/P --gitlab-project GROUP/NAME [--gitlab-project-id N] [--token-file F]   "
         "(link to a GitLab project)",
         {.command = "project link-gitlab",
          .required = {"project", "gitlab-project"},
          .optional = {"gitlab-project-id", "token-file"},
          .flags = {"json"}},
         link_gitlab},
        {"unlink",
         "--project A/P   (remove the project's repository link)",
         {.command = "project unlink", .required = {"project"}, .flags = {"json"}},
         unlink},
        {"tokenless-auth",
         "--project A/P --enabled true|false   (CI uploads without a token)",
         {.command = "project tokenless-auth",
          .required = {"project", "enabled"},
          .flags = {"json"}},
         toggle("tokenlessAuthEnabled", &GitProjectSettings::tokenless_auth_enabled)},
        {"github-actions-oidc",
         "--project A/P --enabled true|false   (CI uploads with a GitHub Actions OIDC ID token)",
         {.command = "project github-actions-oidc",
          .required = {"project", "enabled"},
          .flags = {"json"}},
         toggle("githubActionsOidcEnabled", &GitProjectSettings::github_actions_oidc_enabled)},
        {"gitlab-ci-oidc",
         "--project A/P --enabled true|false   (CI uploads with a GitLab CI ID token)",
         {.command = "project gitlab-ci-oidc",
          .required = {"project", "enabled"},
          .flags = {"json"}},
         toggle("gitlabCiOidcEnabled", &GitProjectSettings::gitlab_ci_oidc_enabled)},
        {"pr-comment",
         "--project A/P --enabled true|false   (the pull request comment listing its builds)",
         {.command = "project pr-comment", .required = {"project", "enabled"}, .flags = {"json"}},
         toggle("prCommentEnabled", &GitProjectSettings::pr_comment_enabled)},
        {"summary-check",
         "--project A/P --mode always|never|auto   (the GitHub summary check of pull requests)",
         {.command = "project summary-check", .required = {"project", "mode"}, .flags = {"json"}},
         summary_check},
        {"links",
         "  (every repository link)",
         {.command = "project links", .flags = {"json"}},
         links},
    };
    return all;
}

}  // namespace

void add_admin_commands(Host& host) {
    for (const auto& command : admin_commands()) {
        const std::string name = std::string("project ") + command.action;
        host.commands().add("admin " + name, command.synopsis,
                            [&host, &command, name](const std::vector<std::string>& args) {
                                const std::string usage =
                                    "usage: loupe admin " + name + " " + command.synopsis + "\n";
                                return cli::run_command(
                                    "loupe admin " + name, usage, args, std::cout, std::cerr, [&] {
                                        const Options options(command.options, args);
                                        const auto result = command.run(host, options);
                                        if (options.has("json")) {
                                            std::cout << result.dump() << "\n";
                                        } else {
                                            print_text(result);
                                        }
                                        return 0;
                                    });
                            });
    }
}

}  // namespace loupe::git
