#include "retention/retention_commands.hpp"

#include <soci/soci.h>

#include <charconv>
#include <iostream>
#include <stdexcept>

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

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Arguments {
    bool dry_run = false;
    bool json = false;
    bool skip_blobs = false;
    bool use_default = false;
    std::optional<std::string> project;
    std::optional<std::string> days;
};

Arguments parse(const std::vector<std::string>& args, bool retention) {
    Arguments parsed;
    for (std::size_t i = 0; i < args.size(); ++i) {
        const auto& arg = args[i];
        const auto value = [&]() -> std::string {
            if (i + 1 >= args.size()) {
                throw UsageError(arg + " expects a value");
            }
            return args[++i];
        };
        if (arg == "--json") {
            parsed.json = true;
        } else if (arg == "--project") {
            parsed.project = value();
        } else if (!retention && arg == "--dry-run") {
            parsed.dry_run = true;
        } else if (!retention && arg == "--skip-blobs") {
            parsed.skip_blobs = true;
        } else if (retention && arg == "--days") {
            parsed.days = value();
        } else if (retention && arg == "--default") {
            parsed.use_default = true;
        } else {
            throw UsageError("unknown option \"" + arg + "\"");
        }
    }
    return parsed;
}

Project find_project(Identity& identity, const std::string& text) {
    const auto slash = text.find('/');
    if (slash == std::string::npos) {
        throw UsageError("--project expects ACCOUNT/NAME, got \"" + text + "\"");
    }
    auto project = identity.find_project(text.substr(0, slash), text.substr(slash + 1));
    if (!project) {
        throw std::runtime_error("no project " + text);
    }
    return *project;
}

int64_t parse_days(const std::string& text) {
    int64_t days = -1;
    const auto* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, days);
    if (error != std::errc() || ptr != end || days < 0 || days > 36500) {
        throw UsageError("--days expects a number of days from 0 to 36500, got \"" + text + "\"");
    }
    return days;
}

int run_prune(Host& host, Retention& retention, const std::vector<std::string>& args) {
    const auto parsed = parse(args, false);
    RetentionOptions options;
    options.dry_run = parsed.dry_run;
    options.sweep_blobs = !parsed.skip_blobs;
    if (parsed.project) {
        options.project_id = find_project(host.identity(), *parsed.project).id;
    }
    const auto report = retention.run(options);
    if (parsed.json) {
        std::cout << report.to_json().dump() << "\n";
    } else {
        std::cout << report.to_text();
    }
    return report.blobs && !report.blobs->swept ? 3 : 0;
}

int run_retention(Host& host, Retention& retention, const std::vector<std::string>& args) {
    const auto parsed = parse(args, true);
    if (!parsed.project) {
        throw UsageError("--project is required");
    }
    if (parsed.days && parsed.use_default) {
        throw UsageError("--days and --default exclude each other");
    }
    const auto project = find_project(host.identity(), *parsed.project);
    const std::optional<int64_t> days =
        parsed.days ? std::optional<int64_t>(parse_days(*parsed.days)) : std::nullopt;
    const auto settings = host.db().transaction([&](soci::session& session) {
        auto current = build_settings_of(session, project.id);
        if (days || parsed.use_default) {
            current.retention_days = days;
            save_build_settings(session, project.id, current);
        }
        return current;
    });
    const auto effective = settings.retention_days.value_or(retention.default_days());
    if (parsed.json) {
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
        try {
            for (const auto& arg : args) {
                if (arg == "--help" || arg == "-h" || arg == "help") {
                    std::cout << usage;
                    return 0;
                }
            }
            return run(args);
        } catch (const UsageError& error) {
            std::cerr << "loupe admin " << name << ": " << error.what() << "\n\n" << usage;
            return 2;
        } catch (const std::runtime_error& error) {
            std::cerr << "loupe admin " << name << ": " << error.what() << "\n";
            return 1;
        }
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
