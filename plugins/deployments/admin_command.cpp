#include "admin_command.hpp"

#include <soci/soci.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <iostream>

#include "loupe/cli/lookups.hpp"
#include "prune.hpp"
#include "site/link_json.hpp"
#include "site/link_keys.hpp"
#include "site_names.hpp"
#include "store/links.hpp"
#include "store/settings.hpp"
#include "store/sites.hpp"

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
    "      public, private ones need a private link), public, private or domain-private\n"
    "  link --site NAME [--expires-in 7d]\n"
    "      print a private link to a site (a deployment's slug or an alias): it opens the\n"
    "      deployment the name reaches now, until it expires or is revoked\n"
    "  links --project ACCOUNT/NAME [--site NAME]\n"
    "      list the project's live private links (id, site, deployment, source, expiry)\n"
    "  revoke-link --project ACCOUNT/NAME (--id ID | --site NAME | --all)\n"
    "      revoke one link, the links issued for one site name, or all the project's links\n";

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
    std::optional<SiteTarget> target;
    if (is_site_name(name) && !is_link_key(name)) {
        auto session = context.host.db().session();
        target = find_site(*session, name);
    }
    if (!target) {
        throw cli::CommandError("no ready deployment is reachable as \"" + name + "\"");
    }
    const int64_t ttl =
        options.has("expires-in") ? duration_seconds(options, "expires-in") : context.link_ttl_s;
    SiteLink link;
    link.project_id = target->project_id;
    link.deployment_id = target->deployment_id;
    link.site_name = name;
    link.source = "admin";
    link.created_at = now_ms();
    link.expires_at = link.created_at + ttl * 1000;
    const LinkKeys& keys = context.link_keys();
    context.host.db().transaction([&](soci::session& session) {
        insert_link(session, link, [&keys](int64_t id) { return link_key_hash(keys.key_of(id)); });
    });
    const std::string url = context.urls.root(keys.key_of(link.id));
    if (options.has("json")) {
        std::cout << Json{{"id", std::to_string(link.id)},
                          {"url", url},
                          {"site", name},
                          {"deploymentId", std::to_string(link.deployment_id)},
                          {"expiresAt", iso_time(link.expires_at)}}
                         .dump()
                  << "\n";
    } else {
        std::cout << url << "\n";
    }
    return 0;
}

int run_links(PluginContext& context, const std::vector<std::string>& args) {
    const Options options({.command = "deployments links",
                           .required = {"project"},
                           .optional = {"site"},
                           .flags = {"json"}},
                          args);
    const Project project = cli::project_option(context.host.identity(), options);
    std::vector<SiteLink> links;
    {
        auto session = context.host.db().session();
        links = live_links(*session, project.id, now_ms(), options.optional_value("site"));
    }
    if (options.has("json")) {
        Json list = Json::array();
        for (const auto& link : links) {
            list.push_back(link_json(link));
        }
        std::cout << Json{{"links", list}}.dump() << "\n";
        return 0;
    }
    std::cout << links.size() << " live link(s) of " << project.account_slug << "/" << project.name
              << "\n";
    for (const auto& link : links) {
        std::cout << link.id << "  " << link.site_name << "  deployment " << link.deployment_id
                  << "  " << link.source << "  expires " << iso_time(link.expires_at) << "\n";
    }
    return 0;
}

int run_revoke_link(PluginContext& context, const std::vector<std::string>& args) {
    const Options options({.command = "deployments revoke-link",
                           .required = {"project"},
                           .optional = {"id", "site"},
                           .flags = {"all", "json"}},
                          args);
    const Project project = cli::project_option(context.host.identity(), options);
    const int choices = static_cast<int>(options.has("id")) +
                        static_cast<int>(options.has("site")) +
                        static_cast<int>(options.has("all"));
    if (choices != 1) {
        throw UsageError("revoke-link expects one of --id, --site and --all");
    }
    const std::optional<std::string> id_text = options.optional_value("id");
    const int64_t id = id_text ? cli::integer_argument(*id_text, "--id", 1, INT64_MAX) : 0;
    int64_t revoked = 0;
    context.host.db().transaction([&](soci::session& session) {
        const int64_t now = now_ms();
        if (id_text) {
            if (!revoke_link(session, project.id, id, now)) {
                throw cli::CommandError("no live link " + *id_text + " in " + project.account_slug +
                                        "/" + project.name);
            }
            revoked = 1;
        } else {
            revoked = revoke_links(session, project.id, now, options.optional_value("site"));
        }
    });
    if (options.has("json")) {
        std::cout << Json{{"revoked", revoked}}.dump() << "\n";
    } else {
        std::cout << "revoked " << revoked << " link(s); they stop opening the site within "
                  << "plugins.deployments.cache_ttl_ms\n";
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
    if (command == "links") {
        return run_links(context, args);
    }
    if (command == "revoke-link") {
        return run_revoke_link(context, args);
    }
    throw UsageError("unknown command \"" + command + "\"");
}

}  // namespace

void add_admin_command(PluginContext& context) {
    context.host.commands().add(
        "admin deployments", "prune old deployments, project settings, private links",
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
