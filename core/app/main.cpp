// The `loupe` executable: global options, then one subcommand.
#include <algorithm>
#include <exception>
#include <iomanip>
#include <iostream>

#include "admin_command.hpp"
#include "command_line.hpp"
#include "config/config.hpp"
#include "jobs_command.hpp"
#include "loupe/version.hpp"
#include "runtime.hpp"
#include "serve_command.hpp"

namespace {

void print_usage(std::ostream& out, const loupe::Registries* registries) {
    out << "usage: loupe [--config FILE] [--set key=value]... COMMAND [ARGS]\n\n"
           "commands:\n"
           "  serve [--no-migrate]   start the HTTP server (migrates first)\n"
           "  migrate                apply pending schema migrations and exit\n"
           "  admin ...              manage users, accounts, projects and tokens\n"
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
           "it.\n";
}

/// `loupe admin GROUP ACTION ...`: a plugin's command registered as "admin GROUP ACTION" when
/// there is one (it receives the arguments after the action), else the core's.
int run_admin(loupe::Runtime& runtime, const std::vector<std::string>& args) {
    std::vector<std::string> words;
    for (const auto& arg : args) {
        if (!arg.starts_with("-")) {
            words.push_back(arg);
        }
        if (words.size() == 2) {
            break;
        }
    }
    std::vector<std::string> synopses;
    for (const auto& command : runtime.registries().commands) {
        if (!command.name.starts_with("admin ")) {
            continue;
        }
        if (words.size() == 2 && command.name == "admin " + words[0] + " " + words[1]) {
            std::vector<std::string> rest(args);
            for (const auto& word : words) {
                rest.erase(std::find(rest.begin(), rest.end(), word));
            }
            return command.run(rest);
        }
        synopses.push_back(command.name.substr(6) + " " + command.summary);
    }
    return loupe::run_admin_command(runtime.identity(), args, std::cout, std::cerr, synopses);
}

int run(int argc, char** argv) {
    const auto line = loupe::parse_command_line(argc, argv);
    if (line.command == "version") {
        std::cout << "loupe " << LOUPE_VERSION << "\nplugin API " << LOUPE_PLUGIN_API_VERSION
                  << "\nbuild id " << LOUPE_BUILD_ID << "\n";
        return 0;
    }
    auto config_path =
        line.config_path.empty() ? loupe::default_config_path(argv[0]) : line.config_path;
    auto overrides = line.overrides;
    if (line.command != "serve" && !overrides.contains("db.pool_size")) {
        // One-shot commands need a couple of connections, not a server's pool.
        overrides["db.pool_size"] = "2";
    }
    loupe::Runtime runtime(loupe::Config::load(config_path, overrides));

    if (line.help || line.command.empty() || line.command == "help") {
        runtime.load_plugins();
        print_usage(line.help || line.command == "help" ? std::cout : std::cerr,
                    &runtime.registries());
        return line.command.empty() && !line.help ? 2 : 0;
    }
    if (line.command == "serve") {
        return loupe::run_serve_command(runtime, line.args);
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
    if (line.command == "admin") {
        // Plugins may contribute `admin GROUP ACTION` commands (registered under that name).
        runtime.load_plugins();
        runtime.migrate();
        return run_admin(runtime, line.args);
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

int main(int argc, char** argv) {
    try {
        return run(argc, argv);
    } catch (const std::exception& error) {
        std::cerr << "loupe: " << error.what() << "\n";
        return 1;
    }
}
