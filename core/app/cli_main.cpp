// The `loupe` executable: global options, then one subcommand.
#include <sys/stat.h>

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <iomanip>
#include <iostream>
#include <optional>
#include <set>

#include "admin_command.hpp"
#include "backup/backup.hpp"
#include "blob/s3/blob_migration.hpp"
#include "command_line.hpp"
#include "config/config.hpp"
#include "jobs_command.hpp"
#include "loupe/version.hpp"
#include "runtime.hpp"
#include "serve_command.hpp"
#include "standalone_command.hpp"

namespace {

void print_usage(std::ostream& out, const loupe::Registries* registries) {
    out << "usage: loupe [--config FILE] [--set key=value]... COMMAND [ARGS]\n\n"
           "commands:\n"
           "  serve [--no-migrate]   start the HTTP server (migrates first)\n"
           "  migrate                apply pending schema migrations and exit\n"
           "  admin ...              manage users, accounts, projects and tokens\n"
           "  admin blobs migrate --to s3 [--from DIR]   copy local blobs into the bucket\n"
           "  admin backup DIR       copy the database (SQLite, online) and the blobs into DIR\n"
           "  admin restore DIR      restore a backup into the empty data folder\n"
           "  jobs list|retry ...    inspect the job queue, queue a failed job again\n"
           "  plugins                list the enabled plugins\n"
           "  version                print the version and plugin build id\n";
    if (registries != nullptr) {
        for (const auto& command : registries->commands) {
            if (command.name.starts_with("admin ")) {
                continue;  // listed by `loupe admin --help`
            }
            out << "  " << std::left << std::setw(23) << command.name << command.summary
                << " (plugin " << command.plugin << ")\n";
        }
    }
    out << "\nConfiguration: etc/loupe.properties; environment LOUPE_<KEY> and --set override "
           "it.\nCommands other than serve log warnings and errors only: --set log.level=info "
           "(or LOUPE_LOG_LEVEL=info) shows the rest.\n";
}

/// The first two words of `loupe admin` arguments that are not options: group and action.
std::vector<std::size_t> admin_word_positions(const std::vector<std::string>& args) {
    std::vector<std::size_t> positions;
    for (std::size_t i = 0; i < args.size() && positions.size() < 2; ++i) {
        if (!args[i].starts_with("-")) {
            positions.push_back(i);
        }
    }
    return positions;
}

/// A plugin's "admin <group> <action>" command (plugins are loaded only when the core has no
/// such admin command), or nullptr.
const loupe::RegisteredCommand* plugin_admin_command(loupe::Runtime& runtime,
                                                     const std::vector<std::string>& args) {
    const auto positions = admin_word_positions(args);
    if (positions.size() < 2) {
        return nullptr;
    }
    const auto& group = args[positions[0]];
    const auto& action = args[positions[1]];
    if (loupe::is_core_admin_command(group, action)) {
        return nullptr;
    }
    runtime.load_plugins();
    for (const auto& command : runtime.registries().commands) {
        if (command.name == "admin " + group + " " + action) {
            return &command;
        }
    }
    return nullptr;
}

std::vector<std::string> plugin_admin_arguments(const std::vector<std::string>& args) {
    const auto positions = admin_word_positions(args);
    std::vector<std::string> rest;
    for (std::size_t i = 0; i < args.size(); ++i) {
        if (i != positions[0] && i != positions[1]) {
            rest.push_back(args[i]);
        }
    }
    return rest;
}

/// "GROUP ACTION summary" of every plugin-contributed admin command, for the admin usage.
std::vector<std::string> plugin_admin_synopses(loupe::Runtime& runtime) {
    std::vector<std::string> synopses;
    for (const auto& command : runtime.registries().commands) {
        if (command.name.starts_with("admin ")) {
            synopses.push_back(command.name.substr(6) + " " + command.summary);
        }
    }
    return synopses;
}

bool is_core_command(const std::string& command) {
    static const std::set<std::string> core = {"",      "help", "serve",   "migrate",
                                               "admin", "jobs", "plugins", "version"};
    return core.contains(command);
}

int run(int argc, char** argv) {
    const auto line = loupe::parse_command_line(argc, argv);
    if (line.command == "version") {
        std::cout << "loupe " << LOUPE_VERSION << "\nplugin API " << LOUPE_PLUGIN_API_VERSION
                  << "\nbuild id " << LOUPE_BUILD_ID << "\n";
        return 0;
    }
    auto config_path =
        line.config_path.empty() ? loupe::default_config_path("/proc/self/exe") : line.config_path;
    auto overrides = line.overrides;
    if (line.command != "serve" && !overrides.contains("db.pool_size")) {
        // One-shot commands need a couple of connections, not a server's pool.
        overrides["db.pool_size"] = "2";
    }
    if (line.command != "serve" && !overrides.contains("log.level") &&
        std::getenv(loupe::Config::env_name("log.level").c_str()) == nullptr) {
        // A one-shot command's answer is its output: its log keeps to warnings and errors
        // unless asked for more on the command line or in the environment (the configuration
        // file's log.level is the server's).
        overrides["log.level"] = "warn";
    }
    auto config = loupe::Config::load(config_path, overrides);
    const bool admin = line.command == "admin" && !line.args.empty();
    if (admin && line.args[0] == "restore") {
        // Before anything opens (and so creates) the database in the data folder.
        return loupe::run_restore_command(*config, line.args, std::cout, std::cerr);
    }
    if (!line.help && !is_core_command(line.command)) {
        // A plugin command that needs no runtime (`diff`) runs before any database is opened.
        if (const auto exit_code =
                loupe::run_standalone_command(*config, line.command, line.args)) {
            return *exit_code;
        }
    }
    // The server's log goes to log.file from its first line; other commands keep stderr.
    std::optional<loupe::LogFile> log_file;
    if (line.command == "serve" && !line.help) {
        if (const auto path = config->get_string("log.file", ""); !path.empty()) {
            log_file.emplace(path);
        }
    }
    loupe::Runtime runtime(std::move(config));
    if (admin && line.args[0] == "backup") {
        return loupe::run_backup_command(runtime, line.args, std::cout, std::cerr);
    }

    if (line.help || line.command.empty() || line.command == "help") {
        runtime.load_plugins();
        print_usage(line.help || line.command == "help" ? std::cout : std::cerr,
                    &runtime.registries());
        return line.command.empty() && !line.help ? 2 : 0;
    }
    if (line.command == "serve") {
        return loupe::run_serve_command(runtime, line.args, log_file ? &*log_file : nullptr);
    }
    if (line.command == "migrate") {
        runtime.load_plugins();
        auto applied = runtime.migrate();
        for (const auto& step : applied) {
            std::cout << "applied " << step.plugin << "/" << step.version << " " << step.name
                      << "\n";
        }
        std::cout << (applied.empty() ? "database is up to date\n" : "");
        return 0;
    }
    if (line.command == "admin" && !line.args.empty() && line.args[0] == "blobs") {
        return loupe::run_blobs_admin_command(runtime.config(), runtime.data_dir(), line.args,
                                              std::cout, std::cerr, runtime.log());
    }
    if (line.command == "admin" && !line.args.empty() && !line.args[0].starts_with('-') &&
        line.args[0] != "help" && !loupe::is_core_admin_group(line.args[0])) {
        // `loupe admin deployments prune ...`: a plugin's command named "admin deployments".
        runtime.load_plugins();
        runtime.migrate();
        for (const auto& command : runtime.registries().commands) {
            if (command.name == "admin " + line.args[0]) {
                return command.run(
                    std::vector<std::string>(line.args.begin() + 1, line.args.end()));
            }
        }
    }
    if (line.command == "admin") {
        if (const auto* command = plugin_admin_command(runtime, line.args)) {
            runtime.migrate();
            return command->run(plugin_admin_arguments(line.args));
        }
        runtime.load_plugins();
        runtime.migrate();
        return loupe::run_admin_command(runtime.identity(), line.args, std::cout, std::cerr,
                                        plugin_admin_synopses(runtime));
    }
    if (line.command == "jobs") {
        runtime.migrate();
        return loupe::run_jobs_command(runtime.database(), line.args, std::cout, std::cerr);
    }
    runtime.load_plugins();
    if (line.command == "plugins") {
        for (const auto& plugin : runtime.plugins()) {
            std::cout << plugin.name << " " << plugin.version << " " << plugin.path << "\n";
        }
        return 0;
    }
    for (const auto& command : runtime.registries().commands) {
        if (command.name == line.command) {
            return command.run(line.args);
        }
    }
    std::cerr << "loupe: unknown command '" << line.command << "'\n\n";
    print_usage(std::cerr, &runtime.registries());
    return 2;
}

}  // namespace

/// The whole program, which the `loupe` launcher (core/launcher) loads for every command that
/// has no command module of its own.
extern "C" __attribute__((visibility("default"))) int loupe_cli_main(int argc, char** argv) {
    ::umask(077);  // also set by the launcher; kept for any other caller
    try {
        return run(argc, argv);
    } catch (const std::exception& error) {
        std::cerr << "loupe: " << error.what() << "\n";
        return 1;
    }
}
