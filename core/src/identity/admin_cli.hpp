#pragma once
// `loupe admin ...`: users, accounts, memberships, projects and tokens from the command line.

#include <ostream>
#include <string>
#include <vector>

#include "identity/identity_store.hpp"
#include "loupe/export.hpp"

namespace loupe {

/// Runs one admin command. `args` are the words after `admin` (a leading "admin" is skipped).
/// With `--json` anywhere, prints exactly one JSON object on `out`; otherwise text for people.
/// Returns 0 on success, 2 for a usage error and 1 for a refused operation (AdminError), each
/// with its message on `err`. Database failures propagate as exceptions.
/// True when `group action` (e.g. "user create") is one of the core's admin commands; the others
/// may be contributed by plugins as commands named "admin <group> <action>".
LOUPE_API bool is_core_admin_command(const std::string& group, const std::string& action);

/// `plugin_synopses` are listed in the usage after the core's commands (plugins contribute
/// `admin GROUP ACTION` commands through Host::commands(); the executable dispatches them).
LOUPE_API int run_admin_command(IdentityStore& identity, const std::vector<std::string>& args,
                                std::ostream& out, std::ostream& err,
                                const std::vector<std::string>& plugin_synopses = {});

/// True for the groups the core's admin command handles ("user", "project", ...). Any other
/// `loupe admin GROUP ...` is looked up among the plugins' commands as "admin GROUP".
LOUPE_API bool is_core_admin_group(const std::string& word);

}  // namespace loupe
