#pragma once

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "identity/identity_store.hpp"
#include "loupe/export.hpp"

namespace loupe {

struct BootstrapResult {
    std::string project_token;
    std::string personal_access_token;
    std::string file;  ///< <data.dir>/bootstrap.json, mode 0600
    std::string admin_slug;
    /// The personal access token expires 30 days after the first start (epoch ms): it is a key
    /// to every project of `default`, meant to last until the admin has made their own.
    int64_t personal_access_token_expires_at = 0;
};

/// On a database with no user at all: creates user `admin`, team account `default` owned by
/// it, project `default`, a project token and a PAT scoped to `default`; prints them once in a
/// framed block on `out` and writes them to <data_dir>/bootstrap.json. Otherwise nothing.
LOUPE_API std::optional<BootstrapResult> bootstrap_if_empty(IdentityStore& identity,
                                                            const std::string& data_dir,
                                                            std::ostream& out);

/// bootstrap_if_empty() without printing: `loupe serve` prints the block once it listens, with
/// the lines plugins add (a sign-in link needs the final public URL).
LOUPE_API std::optional<BootstrapResult> create_bootstrap_if_empty(IdentityStore& identity,
                                                                   const std::string& data_dir);
/// The framed block of a bootstrap, with `extra_lines` at its end.
LOUPE_API void print_bootstrap(std::ostream& out, const BootstrapResult& result,
                               const std::vector<std::string>& extra_lines = {});

}  // namespace loupe
