#include "commands/admin_commands.hpp"

#include <fstream>
#include <iostream>
#include <map>
#include <regex>
#include <set>
#include <stdexcept>

#include "store/links.hpp"

namespace loupe::git {
namespace {

class UsageError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};
class RefusedError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

/// `--name value` pairs and the `--json` flag, checked against what the command accepts.
class Options {
public:
    Options(const std::vector<std::string>& args, const std::set<std::string>& accepted) {
        for (std::size_t i = 0; i < args.size(); ++i) {
            const auto& arg = args[i];
            if (arg == "--json") {
                json = true;
                continue;
            }
            if (!arg.starts_with("--") || !accepted.contains(arg.substr(2))) {
                throw UsageError("unexpected argument \"" + arg + "\"");
            }
            if (i + 1 >= args.size()) {
                throw UsageError("missing value after " + arg);
            }
            values_[arg.substr(2)] = args[++i];
        }
    }
    const std::string& required(const std::string& name) const {
        auto found = values_.find(name);
        if (found == values_.end()) {
            throw UsageError("missing --" + name);
        }
        return found->second;
    }
    std::optional<std::string> optional(const std::string& name) const {
        auto found = values_.find(name);
        return found == values_.end() ? std::nullopt : std::optional(found->second);
    }

    bool json = false;

private:
    std::map<std::string, std::string> values_;
};

const std::regex github_repository(R"(^[A-Za-z0-9][A-Za-z0-9-]{0,38}/[A-Za-z0-9._-]{1,100}$)");
const std::regex gitlab_path(R"(^[A-Za-z0-9_.][A-Za-z0-9_.-]*(/[A-Za-z0-9_.][A-Za-z0-9_.-]*)+$)");

int64_t positive_id(const std::string& option, const std::string& text) {
    if (text.empty() || text.size() > 18 ||
        text.find_first_not_of("0123456789") != std::string::npos || std::stoll(text) <= 0) {
        throw UsageError("--" + option + " must be a positive integer (got \"" + text + "\")");
    }
    return std::stoll(text);
}

Project find_project(Host& host, const std::string& slug) {
    const auto slash = slug.find('/');
    if (slash == std::string::npos || slash == 0 || slash + 1 == slug.size()) {
        throw UsageError("--project must be ACCOUNT/PROJECT (got \"" + slug + "\")");
    }
    auto project = host.identity().find_project(slug.substr(0, slash), slug.substr(slash + 1));
    if (!project) {
        throw RefusedError("no project " + slug);
    }
    return *project;
}

Json link_json(const RepositoryLink& link, const std::string& project_slug, bool tokenless) {
    Json out{{"project", project_slug},
             {"provider", provider_name(link.provider)},
             {"repository", link.repository},
             {"tokenlessAuthEnabled", tokenless}};
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
    return text;
}

using Action = std::function<Json(Host&, const Options&)>;

struct AdminCommand {
    const char* action;
    const char* synopsis;
    std::set<std::string> options;
    Action run;
};

Json save(Host& host, const Project& project, RepositoryLink link) {
    link.project_id = project.id;
    bool tokenless = false;
    host.db().transaction([&](soci::session& session) {
        save_link(session, link, now_ms());
        tokenless = tokenless_auth_enabled(session, project.id);
    });
    return Json{{"linked", link_json(link, project.account_slug + "/" + project.name, tokenless)}};
}

Json link_github(Host& host, const Options& options) {
    const auto& repository = options.required("repo");
    if (!std::regex_match(repository, github_repository)) {
        throw UsageError("--repo must be OWNER/NAME (got \"" + repository + "\")");
    }
    const auto installation = positive_id("installation-id", options.required("installation-id"));
    const auto project = find_project(host, options.required("project"));
    RepositoryLink link;
    link.provider = Provider::github;
    link.repository = repository;
    link.installation_id = installation;
    return save(host, project, link);
}

Json link_gitlab(Host& host, const Options& options) {
    const auto& path = options.required("gitlab-project");
    if (!std::regex_match(path, gitlab_path)) {
        throw UsageError("--gitlab-project must be GROUP/NAME (got \"" + path + "\")");
    }
    RepositoryLink link;
    link.provider = Provider::gitlab;
    link.repository = path;
    if (auto id = options.optional("gitlab-project-id")) {
        link.gitlab_project_id = positive_id("gitlab-project-id", *id);
    }
    if (auto file = options.optional("token-file")) {
        if (!std::ifstream(*file)) {
            throw RefusedError("cannot read --token-file " + *file);
        }
        link.token_file = *file;
    }
    return save(host, find_project(host, options.required("project")), link);
}

Json unlink(Host& host, const Options& options) {
    const auto& slug = options.required("project");
    const auto project = find_project(host, slug);
    const bool removed = host.db().transaction(
        [&](soci::session& session) { return delete_link(session, project.id); });
    if (!removed) {
        throw RefusedError(slug + " is not linked to a repository");
    }
    return Json{{"unlinked", slug}};
}

Json tokenless_auth(Host& host, const Options& options) {
    const auto& value = options.required("enabled");
    if (value != "true" && value != "false") {
        throw UsageError("--enabled must be true or false (got \"" + value + "\")");
    }
    const auto& slug = options.required("project");
    const auto project = find_project(host, slug);
    host.db().transaction([&](soci::session& session) {
        set_tokenless_auth_enabled(session, project.id, value == "true", now_ms());
    });
    return Json{{"project", slug}, {"tokenlessAuthEnabled", value == "true"}};
}

Json links(Host& host, const Options&) {
    Json list = Json::array();
    auto session = host.db().session();
    for (const auto& link : all_links(*session)) {
        auto project = host.identity().find_project(link.project_id);
        if (project) {
            list.push_back(link_json(link, project->account_slug + "/" + project->name,
                                     tokenless_auth_enabled(*session, link.project_id)));
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
        std::cout << result["project"].get<std::string>() << ": tokenless authentication "
                  << (result["tokenlessAuthEnabled"].get<bool>() ? "enabled" : "disabled") << "\n";
    }
}

const std::vector<AdminCommand>& admin_commands() {
    static const std::vector<AdminCommand> all{
        {"link-github",
         "--project A/P --repo OWNER/NAME --installation-id N   (link to a GitHub repository)",
         {"project", "repo", "installation-id"},
         link_github},
        {"link-gitlab",
         "--project A/P --gitlab-project GROUP/NAME [--gitlab-project-id N] [--token-file F]   "
         "(link to a GitLab project)",
         {"project", "gitlab-project", "gitlab-project-id", "token-file"},
         link_gitlab},
        {"unlink", "--project A/P   (remove the project's repository link)", {"project"}, unlink},
        {"tokenless-auth",
         "--project A/P --enabled true|false   (CI uploads without a token)",
         {"project", "enabled"},
         tokenless_auth},
        {"links", "  (every repository link)", {}, links},
    };
    return all;
}

}  // namespace

void add_admin_commands(Host& host) {
    for (const auto& command : admin_commands()) {
        const std::string name = std::string("project ") + command.action;
        host.commands().add(
            "admin " + name, command.synopsis,
            [&host, &command, name](const std::vector<std::string>& args) {
                try {
                    const Options options(args, command.options);
                    const auto result = command.run(host, options);
                    if (options.json) {
                        std::cout << result.dump() << "\n";
                    } else {
                        print_text(result);
                    }
                    return 0;
                } catch (const UsageError& error) {
                    std::cerr << "loupe admin " << name << ": " << error.what()
                              << "\nusage: loupe admin " << name << " " << command.synopsis << "\n";
                    return 2;
                } catch (const RefusedError& error) {
                    std::cerr << "loupe admin " << name << ": " << error.what() << "\n";
                    return 1;
                }
            });
    }
}

}  // namespace loupe::git
