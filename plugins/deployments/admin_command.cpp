#include "admin_command.hpp"

#include <soci/soci.h>

#include <iostream>
#include <map>
#include <set>
#include <stdexcept>

#include "durations.hpp"
#include "prune.hpp"
#include "site_names.hpp"
#include "store/settings.hpp"

namespace loupe::deployments {
namespace {

constexpr const char* usage =
    "usage: loupe admin deployments COMMAND [OPTIONS] [--json]\n\n"
    "commands:\n"
    "  prune --older-than 30d [--keep-aliases] [--dry-run]\n"
    "      delete deployments created longer ago than that, and the stored files no other\n"
    "      deployment, screenshot, trace or diff uses (--keep-aliases: keep the deployments\n"
    "      an alias points at)\n"
    "  settings --project ACCOUNT/NAME [--enabled true|false] [--auth MODE]\n"
    "           [--production-branch-glob GLOB | --default-production-branch]\n"
    "      show or change a project's settings; MODE is project (default: public projects\n"
    "      public, private ones need a signed link), public, private or domain-private\n"
    "  link --site NAME [--expires-in 7d]\n"
    "      print a signed link to a site (a deployment's slug or an alias)\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

/// `--name value` options and `--flag` switches after the subcommand.
class Options {
public:
    Options(const std::vector<std::string>& args, const std::set<std::string>& valued,
            const std::set<std::string>& switches) {
        for (std::size_t i = 1; i < args.size(); ++i) {
            const std::string& arg = args[i];
            const std::string name = arg.starts_with("--") ? arg.substr(2) : "";
            if (valued.contains(name)) {
                if (i + 1 >= args.size()) {
                    throw UsageError(arg + " expects a value");
                }
                values_[name] = args[++i];
            } else if (switches.contains(name) || name == "json") {
                values_[name] = "";
            } else {
                throw UsageError("unknown option \"" + arg + "\"");
            }
        }
    }
    bool has(const std::string& name) const { return values_.contains(name); }
    std::optional<std::string> get(const std::string& name) const {
        const auto it = values_.find(name);
        return it == values_.end() ? std::nullopt : std::optional(it->second);
    }
    std::string require(const std::string& name) const {
        auto value = get(name);
        if (!value || value->empty()) {
            throw UsageError("--" + name + " is required");
        }
        return *value;
    }

private:
    std::map<std::string, std::string> values_;
};

int64_t duration_option(const Options& options, const std::string& name) {
    const std::string text = options.require(name);
    const auto seconds = parse_duration_seconds(text);
    if (!seconds) {
        throw UsageError("--" + name + " expects a duration such as 30d, 12h or 45m, got \"" +
                         text + "\"");
    }
    return *seconds;
}

int run_prune(PluginContext& context, const std::vector<std::string>& args) {
    const Options options(args, {"older-than"}, {"keep-aliases", "dry-run"});
    PruneOptions prune;
    prune.cutoff_ms = now_ms() - duration_option(options, "older-than") * 1000;
    prune.keep_aliased = options.has("keep-aliases");
    prune.dry_run = options.has("dry-run");
    const PruneReport report = prune_deployments(context.host, prune);
    if (options.has("json")) {
        std::cout << Json{{"deployments", report.deployments}, {"files", report.files},
                          {"blobsRemoved", report.blobs},      {"bytesRemoved", report.blob_bytes},
                          {"blobsKept", report.blobs_kept},    {"dryRun", prune.dry_run}}
                         .dump()
                  << "\n";
        return 0;
    }
    std::cout << (prune.dry_run ? "would prune " : "pruned ") << report.deployments
              << " deployment(s) (" << report.files << " file(s)); "
              << (prune.dry_run ? "would remove " : "removed ") << report.blobs << " blob(s), "
              << report.blob_bytes << " bytes; " << report.blobs_kept
              << " blob(s) kept, still used elsewhere\n";
    return 0;
}

Project project_option(Identity& identity, const Options& options) {
    const std::string text = options.require("project");
    const std::size_t slash = text.find('/');
    if (slash == std::string::npos) {
        throw UsageError("--project expects ACCOUNT/NAME, got \"" + text + "\"");
    }
    auto project = identity.find_project(text.substr(0, slash), text.substr(slash + 1));
    if (!project) {
        throw std::runtime_error("no project " + text);
    }
    return *project;
}

int run_settings(PluginContext& context, const std::vector<std::string>& args) {
    const Options options(args, {"project", "enabled", "auth", "production-branch-glob"},
                          {"default-production-branch"});
    const Project project = project_option(context.host.identity(), options);
    ProjectSettings settings = context.host.db().transaction([&](soci::session& session) {
        ProjectSettings current = load_settings(session, project.id);
        bool changed = false;
        if (auto enabled = options.get("enabled")) {
            if (*enabled != "true" && *enabled != "false") {
                throw UsageError("--enabled expects true or false");
            }
            current.enabled = *enabled == "true";
            changed = true;
        }
        if (auto auth = options.get("auth")) {
            if (*auth != "project" && *auth != "public" && *auth != "private" &&
                *auth != "domain-private") {
                throw UsageError("--auth expects project, public, private or domain-private");
            }
            current.auth = *auth;
            changed = true;
        }
        if (auto glob = options.get("production-branch-glob")) {
            if (glob->empty()) {
                throw UsageError("--production-branch-glob expects a glob");
            }
            current.production_branch_glob = *glob;
            changed = true;
        }
        if (options.has("default-production-branch")) {
            current.production_branch_glob.reset();
            changed = true;
        }
        if (changed) {
            save_settings(session, project.id, current);
        }
        return current;
    });
    const std::string glob = settings.production_branch_glob.value_or(project.default_base_branch);
    if (options.has("json")) {
        std::cout << Json{{"project", project.account_slug + "/" + project.name},
                          {"enabled", settings.enabled},
                          {"auth", settings.auth},
                          {"productionBranchGlob", glob}}
                         .dump()
                  << "\n";
    } else {
        std::cout << "project " << project.account_slug << "/" << project.name << "\nenabled "
                  << (settings.enabled ? "true" : "false") << "\nauth " << settings.auth
                  << "\nproduction branch glob " << glob
                  << (settings.production_branch_glob ? "" : " (the default base branch)") << "\n";
    }
    return 0;
}

int run_link(PluginContext& context, const std::vector<std::string>& args) {
    const Options options(args, {"site", "expires-in"}, {});
    const std::string name = options.require("site");
    if (!is_site_name(name) || !context.catalog.resolve(name)) {
        throw std::runtime_error("no ready deployment is reachable as \"" + name + "\"");
    }
    const int64_t ttl =
        options.has("expires-in") ? duration_option(options, "expires-in") : context.link_ttl_s;
    const int64_t expires = now_ms() / 1000 + ttl;
    const std::string url = context.urls.root(name) + "?" + access_parameter + "=" +
                            context.tokens().issue(name, expires);
    if (options.has("json")) {
        std::cout << Json{{"url", url}, {"expiresAt", iso_time(expires * 1000)}}.dump() << "\n";
    } else {
        std::cout << url << "\n";
    }
    return 0;
}

}  // namespace

void add_admin_command(PluginContext& context) {
    context.host.commands().add(
        "admin deployments", "prune old deployments, project settings, signed links",
        [&context](const std::vector<std::string>& args) {
            const std::string command = args.empty() ? "" : args[0];
            try {
                if (command == "prune") {
                    return run_prune(context, args);
                }
                if (command == "settings") {
                    return run_settings(context, args);
                }
                if (command == "link") {
                    return run_link(context, args);
                }
                if (command == "help" || command == "--help" || command == "-h") {
                    std::cout << usage;
                    return 0;
                }
                throw UsageError(command.empty() ? "missing command"
                                                 : "unknown command \"" + command + "\"");
            } catch (const UsageError& error) {
                std::cerr << "loupe admin deployments: " << error.what() << "\n\n" << usage;
                return 2;
            } catch (const std::runtime_error& error) {
                std::cerr << "loupe admin deployments: " << error.what() << "\n";
                return 1;
            }
        });
}

}  // namespace loupe::deployments
