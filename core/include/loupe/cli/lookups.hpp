#pragma once
// The objects an admin command names on its command line: `--project ACCOUNT/NAME`,
// `--account SLUG`, `--user SLUG`. A malformed reference is a UsageError (exit 2), one that
// names nothing is a CommandError (exit 1).

#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "loupe/auth/identity.hpp"
#include "loupe/cli/options.hpp"
#include "loupe/export.hpp"

namespace loupe::cli {

/// "ACCOUNT/NAME" as its two non-empty parts; nullopt for anything else.
LOUPE_API std::optional<std::pair<std::string, std::string>> split_project_reference(
    std::string_view reference);

/// The project option `name` (default --project) names.
LOUPE_API Project project_option(Identity& identity, const Options& options,
                                 std::string_view name = "project");
/// The account option `name` (default --account) names.
LOUPE_API Account account_option(Identity& identity, const Options& options,
                                 std::string_view name = "account");
/// The user option `name` (default --user) names.
LOUPE_API User user_option(Identity& identity, const Options& options,
                           std::string_view name = "user");

}  // namespace loupe::cli
