#include "admin_command.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <chrono>
#include <iostream>

#include "loupe/cli/lookups.hpp"
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

using cli::Options;
using cli::UsageError;

int64_t duration_seconds(const Options& options, std::string_view name) {
    return std::chrono::duration_cast<std::chrono::seconds>(cli::duration_option(options, name))
        .count();
}

int run_prune(PluginContext& context, const std::vector<std::string>& args) {
    const Options options({.command = "deployments prune",
                           .required = {"older-than"},
                           .flags = {"keep-aliases", "dry-run", "json"}},
                          args);
    PruneOptions prune;
    prune.cutoff_ms = now_ms() - cli::duration_option(options, "older-than").count();
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

int run_settings(PluginContext& context, const std::vector<std::string>& args) {
    const Options options({.command = "deployments settings",
                           .required = {"project"},
                           .optional = {"enabled", "auth", "production-branch-glob"},
                           .flags = {"default-production-branch", "json"}},
                          args);
    const Project project = cli::project_option(context.host.identity(), options);
    ProjectSettings settings = context.host.db().transaction([&](soci::session& session) {
        ProjectSettings current = load_settings(session, project.id);
        bool changed = false;
        if (auto enabled = options.optional_value("enabled")) {
            if (*enabled != "true" && *enabled != "false") {
                throw UsageError("--enabled expects true or false");
            }
            current.enabled = *enabled == "true";
            changed = true;
        }
        if (auto auth = options.optional_value("auth")) {
            const auto& modes = site_auth_modes();
            if (std::find(modes.begin(), modes.end(), *auth) == modes.end()) {
                throw UsageError("--auth expects project, public, private or domain-private");
            }
            current.auth = *auth;
            changed = true;
        }
        if (auto glob = options.optional_value("production-branch-glob")) {
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
    const Options options({.command = "deployments link",
                           .required = {"site"},
                           .optional = {"expires-in"},
                           .flags = {"json"}},
                          args);
    const std::string& name = options.value("site");
    if (!is_site_name(name) || !context.catalog.resolve(name)) {
        throw std::runtime_error("no ready deployment is reachable as \"" + name + "\"");
    }
    const int64_t ttl =
        options.has("expires-in") ? duration_seconds(options, "expires-in") : context.link_ttl_s;
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

int run_subcommand(PluginContext& context, const std::string& command,
                   const std::vector<std::string>& args) {
    if (command == "prune") {
        return run_prune(context, args);
    }
    if (command == "settings") {
        return run_settings(context, args);
    }
    if (command == "link") {
        return run_link(context, args);
    }
    throw UsageError("unknown command \"" + command + "\"");
}

}  // namespace

void add_admin_command(PluginContext& context) {
    context.host.commands().add(
        "admin deployments", "prune old deployments, project settings, signed links",
        [&context](const std::vector<std::string>& args) {
            return cli::run_command(
                "loupe admin deployments", usage, args, std::cout, std::cerr, [&] {
                    if (args.empty()) {
                        throw UsageError("missing command");
                    }
                    const std::vector<std::string> rest(args.begin() + 1, args.end());
                    return run_subcommand(context, args[0], rest);
                });
        });
}

}  // namespace loupe::deployments
