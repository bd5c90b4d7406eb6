// The `loupe` executable: a launcher that loads only what the command needs.
//
// Most commands need the whole server (the core, its database drivers, Poco, OpenSSL...), which
// lives in libloupe-cli and takes tens of milliseconds to load and link. A command module,
// <libdir>/commands/NAME.so, runs `loupe NAME ...` without any of that: `loupe diff` is the
// diff engine with its image codecs, and a whole `loupe diff` process costs little more than
// its two decodes and compare. A module exports its command as a standalone command (see
// loupe/standalone_command.hpp); it reads no configuration, so global options before the
// command, or --help after it, go to the whole program instead.
#include <dlfcn.h>
#include <sys/stat.h>
#include <unistd.h>

#include <climits>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string>

#include "loupe/standalone_command.hpp"

namespace {

/// The folder of the running executable, or "" when /proc is not mounted.
std::string executable_folder() {
    char path[PATH_MAX];
    const ssize_t length = ::readlink("/proc/self/exe", path, sizeof path - 1);
    if (length <= 0) {
        return {};
    }
    path[length] = '\0';
    char* slash = std::strrchr(path, '/');
    return slash == nullptr ? std::string() : std::string(path, slash);
}

std::string library_folder(const std::string& executable_folder) {
    return executable_folder + "/" LOUPE_LIBDIR_FROM_BINDIR;
}

bool is_module_name(const char* name) {
    if (*name == '\0') {
        return false;
    }
    for (const char* c = name; *c != '\0'; ++c) {
        if (!((*c >= 'a' && *c <= 'z') || (*c >= '0' && *c <= '9') || *c == '_')) {
            return false;
        }
    }
    return true;
}

bool asks_for_help(int count, char** args) {
    for (int i = 0; i < count; ++i) {
        if (std::strcmp(args[i], "--help") == 0 || std::strcmp(args[i], "-h") == 0) {
            return true;
        }
    }
    return false;
}

/// Runs `loupe NAME ARGS...` from the command module NAME.so, if there is one.
std::optional<int> run_command_module(const std::string& libdir, const char* name, int count,
                                      char** args) {
    if (!is_module_name(name) || asks_for_help(count, args)) {
        return std::nullopt;
    }
    const std::string path = libdir + "/commands/" + name + ".so";
    if (::access(path.c_str(), R_OK) != 0) {
        return std::nullopt;
    }
    void* module = ::dlopen(path.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (module == nullptr) {
        std::fprintf(stderr, "loupe: cannot load %s: %s\n", path.c_str(), ::dlerror());
        return 1;
    }
    const std::string symbol = std::string(LOUPE_STANDALONE_COMMAND_PREFIX) + name;
    const auto run = reinterpret_cast<loupe_standalone_command>(::dlsym(module, symbol.c_str()));
    if (run == nullptr) {
        std::fprintf(stderr, "loupe: %s does not export %s\n", path.c_str(), symbol.c_str());
        return 1;
    }
    return run(count, args);
}

int run_whole_program(const std::string& libdir, int argc, char** argv) {
    const std::string path = libdir + "/libloupe-cli.so";
    // Global: the plugins it loads later share its copy of the core and of the C++ runtime's
    // vague-linkage symbols, as they would with a core linked into the executable.
    void* program = ::dlopen(path.c_str(), RTLD_NOW | RTLD_GLOBAL);
    if (program == nullptr) {
        std::fprintf(stderr, "loupe: cannot load %s: %s\n", path.c_str(), ::dlerror());
        return 1;
    }
    using Main = int (*)(int, char**);
    const auto run = reinterpret_cast<Main>(::dlsym(program, "loupe_cli_main"));
    if (run == nullptr) {
        std::fprintf(stderr, "loupe: %s does not export loupe_cli_main\n", path.c_str());
        return 1;
    }
    return run(argc, argv);
}

}  // namespace

int main(int argc, char** argv) {
    // Everything Loupe creates (data folder, SQLite files, blobs, secrets) is its user's alone:
    // folders 0700, files 0600.
    ::umask(077);
    const std::string libdir = library_folder(executable_folder());
    if (argc >= 2) {
        if (const auto exit_code = run_command_module(libdir, argv[1], argc - 2, argv + 2)) {
            return *exit_code;
        }
    }
    return run_whole_program(libdir, argc, argv);
}
