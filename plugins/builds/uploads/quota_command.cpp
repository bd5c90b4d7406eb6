#include "uploads/quota_command.hpp"

#include <soci/soci.h>

#include <charconv>
#include <iostream>
#include <stdexcept>

#include "store/project_blobs.hpp"
#include "store/settings.hpp"

namespace loupe::builds {
namespace {

constexpr const char* usage =
    "usage: loupe admin quota --project ACCOUNT/NAME [--max-stored-mb N] [--max-screenshots N]\n"
    "                         [--default] [--json]\n"
    "  shows or sets the project's upload quotas: the MiB of stored files it may hold and the\n"
    "  screenshots one build may hold (0: no limit; --default: the server's\n"
    "  plugins.builds.max_stored_bytes and plugins.builds.max_screenshots_per_build)\n";

struct UsageError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct Arguments {
    std::optional<std::string> project;
    std::optional<int64_t> max_stored_mb;
    std::optional<int64_t> max_screenshots;
    bool use_default = false;
    bool json = false;
};

int64_t count_argument(const std::string& option, const std::string& text) {
    int64_t value = -1;
    const auto* end = text.data() + text.size();
    const auto [ptr, error] = std::from_chars(text.data(), end, value);
    if (error != std::errc() || ptr != end || value < 0 || value > (int64_t{1} << 40)) {
        throw UsageError(option + " expects a number >= 0, got \"" + text + "\"");
    }
    return value;
}

Arguments parse(const std::vector<std::string>& args) {
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
        } else if (arg == "--max-stored-mb") {
            parsed.max_stored_mb = count_argument(arg, value());
        } else if (arg == "--max-screenshots") {
            parsed.max_screenshots = count_argument(arg, value());
        } else if (arg == "--default") {
            parsed.use_default = true;
        } else {
            throw UsageError("unknown option \"" + arg + "\"");
        }
    }
    if (!parsed.project) {
        throw UsageError("--project is required");
    }
    if (parsed.use_default && (parsed.max_stored_mb || parsed.max_screenshots)) {
        throw UsageError("--default excludes --max-stored-mb and --max-screenshots");
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

std::string limit_text(int64_t value, const char* unit) {
    return value > 0 ? std::to_string(value) + unit : std::string("no limit");
}

int run(Host& host, const UploadPolicy& policy, const std::vector<std::string>& args) {
    const auto parsed = parse(args);
    const auto project = find_project(host.identity(), *parsed.project);
    int64_t stored = 0;
    const auto settings = host.db().transaction([&](soci::session& session) {
        auto current = build_settings_of(session, project.id);
        if (parsed.use_default) {
            current.max_stored_bytes.reset();
            current.max_screenshots_per_build.reset();
        }
        if (parsed.max_stored_mb) {
            current.max_stored_bytes = *parsed.max_stored_mb << 20;
        }
        if (parsed.max_screenshots) {
            current.max_screenshots_per_build = *parsed.max_screenshots;
        }
        if (parsed.use_default || parsed.max_stored_mb || parsed.max_screenshots) {
            save_build_settings(session, project.id, current);
        }
        stored = held_bytes(session, project.id);
        return current;
    });
    const ProjectQuotas quotas = quotas_of(settings, policy);
    const auto limit = [](int64_t value) { return value > 0 ? Json(value) : Json(nullptr); };
    if (parsed.json) {
        std::cout << Json{{"project", project.account_slug + "/" + project.name},
                          {"maxStoredBytes", limit(quotas.max_stored_bytes)},
                          {"maxScreenshotsPerBuild", limit(quotas.max_screenshots_per_build)},
                          {"storedBytes", stored},
                          {"serverDefaults",
                           {{"maxStoredBytes", !settings.max_stored_bytes.has_value()},
                            {"maxScreenshotsPerBuild",
                             !settings.max_screenshots_per_build.has_value()}}}}
                         .dump()
                  << "\n";
    } else {
        std::cout << "project " << project.account_slug << "/" << project.name << ": holds "
                  << (stored >> 20) << " MiB of stored files, may hold "
                  << limit_text(quotas.max_stored_bytes >> 20, " MiB")
                  << (settings.max_stored_bytes ? "" : " (the server's default)")
                  << "; a build may hold "
                  << limit_text(quotas.max_screenshots_per_build, " screenshots")
                  << (settings.max_screenshots_per_build ? "" : " (the server's default)") << "\n";
    }
    return 0;
}

}  // namespace

void add_quota_command(Host& host, const UploadPolicy& policy) {
    auto* h = &host;
    const auto* p = &policy;
    host.commands().add(
        "admin quota", "show or set a project's upload quotas (stored bytes, screenshots)",
        [h, p](const std::vector<std::string>& args) {
            try {
                for (const auto& arg : args) {
                    if (arg == "--help" || arg == "-h" || arg == "help") {
                        std::cout << usage;
                        return 0;
                    }
                }
                return run(*h, *p, args);
            } catch (const UsageError& error) {
                std::cerr << "loupe admin quota: " << error.what() << "\n\n" << usage;
                return 2;
            } catch (const std::runtime_error& error) {
                std::cerr << "loupe admin quota: " << error.what() << "\n";
                return 1;
            }
        });
}

}  // namespace loupe::builds
