#pragma once
// A plugin command that needs nothing from a running Loupe: no database, no data folder, no
// installed plugin (`loupe diff` compares two files). The plugin exports it under the command's
// name with C linkage:
//
//   LOUPE_STANDALONE_COMMAND(diff) {  // int loupe_command_diff(int argc, const char* const* argv)
//       return run(std::vector<std::string>(argv, argv + argc));
//   }
//
// `loupe diff ARGS...` looks for `loupe_command_diff` in the enabled plugins, in the order of
// plugins.enabled, after the usual checks of each plugin file, and runs the first it finds with
// the command's arguments (without the global options) before the database is opened or any
// plugin installed; its result is the exit code. It must not throw. Register the command with
// host.commands() as well, so that `loupe --help` lists it and a process that has installed the
// plugins can run it.
//
// Faster still, a command module: a shared object lib/loupe/commands/NAME.so (next to
// libloupe-core) that exports the same function and links none of the server. The `loupe`
// launcher runs `loupe NAME ARGS...` from it without loading the server or reading the
// configuration, unless global options come before NAME or --help after it.

extern "C" {
typedef int (*loupe_standalone_command)(int argc, const char* const* argv);
}

/// The symbol of command NAME: loupe_command_ followed by the name.
#define LOUPE_STANDALONE_COMMAND_PREFIX "loupe_command_"

#define LOUPE_STANDALONE_COMMAND(NAME)                                          \
    extern "C" __attribute__((visibility("default"))) int loupe_command_##NAME( \
        int argc, const char* const* argv) noexcept
