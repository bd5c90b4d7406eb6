#include "retention/retention_commands.hpp"

#include <soci/soci.h>

#include <iostream>

#include "loupe/cli/lookups.hpp"
#include "store/settings.hpp"

namespace loupe::builds {
namespace {

constexpr const char* prune_usage =
    "usage: loupe admin prune [--dry-run] [--project ACCOUNT/NAME] [--skip-blobs] [--json]\n"
    "  deletes the builds older than their project's retention (except each branch's latest\n"
    "  build and the baselines of kept builds) with their screenshots, diffs, reviews and\n"
    "  comments, then the stored files nothing references any more; --dry-run changes nothing\n"
    "  and prints what would be freed\n";

constexpr const char* retention_usage =
    "usage: loupe admin retention --project ACCOUNT/NAME [--days N | --default] [--json]\n"
    "  shows or sets how many days the project's builds are kept (0: forever; --default: the\n"
    "  server's plugins.builds.retention_days)\n";

const cli::OptionSpec prune_spec{
    .command = "prune", .optional = {"project"}, .flags = {"dry-run", "skip-blobs", "json"}};
const cli::OptionSpec retention_spec{.command = "retention",
                                     .required = {"project"},
                                     .optional = {"days"},
                                     .flags = {"default", "json"}};

int run_prune(Host& host, Retention& retention, const std::vector<std::string>& args) {
    const cli::Options parsed(prune_spec, args);
    RetentionOptions options;
    options.dry_run = parsed.has("dry-run");
    options.sweep_blobs = !parsed.has("skip-blobs");
    if (parsed.has("project")) {
        options.project_id = cli::project_option(host.identity(), parsed).id;
    }
    const auto report = retention.run(options);
    if (parsed.has("json")) {
        std::cout << report.to_json().dump() << "\n";
    } else {
        std::cout << report.to_text();
    }
    return report.blobs && !report.blobs->swept ? 3 : 0;
}

int run_retention(Host& host, Retention& retention, const std::vector<std::string>& args) {
    const cli::Options parsed(retention_spec, args);
    const bool use_default = parsed.has("default");
    if (parsed.has("days") && use_default) {
        throw cli::UsageError("--days and --default exclude each other");
    }
    const auto project = cli::project_option(host.identity(), parsed);
    std::optional<int64_t> days;
    if (auto text = parsed.optional_value("days")) {
        days = cli::integer_argument(*text, "--days", 0, max_retention_days);
    }
    const auto settings = host.db().transaction([&](soci::session& session) {
        auto current = build_settings_of(session, project.id);
        if (days || use_default) {
            current.retention_days = days;
            save_build_settings(session, project.id, current);
        }
        return current;
    });
    const auto effective = settings.retention_days.value_or(retention.default_days());
    if (parsed.has("json")) {
        std::cout << Json{{"project", project.account_slug + "/" + project.name},
                          {"retentionDays", effective > 0 ? Json(effective) : Json(nullptr)},
                          {"serverDefault", !settings.retention_days.has_value()}}
                         .dump()
                  << "\n";
    } else {
        std::cout << "project " << project.account_slug << "/" << project.name << ": builds "
                  << (effective > 0 ? "kept " + std::to_string(effective) + " day(s)"
                                    : std::string("kept forever"))
                  << (settings.retention_days ? "" : " (the server's default)") << "\n";
    }
    return 0;
}

CommandFn guarded(const char* name, const char* usage,
                  std::function<int(const std::vector<std::string>&)> run) {
    return [name, usage, run = std::move(run)](const std::vector<std::string>& args) {
        return cli::run_command(std::string("loupe admin ") + name, usage, args, std::cout,
                                std::cerr, [&] { return run(args); });
    };
}

}  // namespace

void add_retention_commands(Host& host, Retention& retention) {
    auto* h = &host;
    auto* r = &retention;
    host.commands().add(
        "admin prune", "delete builds past their retention and the files nothing uses (--dry-run)",
        guarded("prune", prune_usage,
                [h, r](const std::vector<std::string>& args) { return run_prune(*h, *r, args); }));
    host.commands().add(
        "admin retention", "show or set how long a project's builds are kept",
        guarded("retention", retention_usage, [h, r](const std::vector<std::string>& args) {
            return run_retention(*h, *r, args);
        }));
}

}  // namespace loupe::builds
