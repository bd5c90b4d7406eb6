#pragma once
// What a `db.url` names: the engine and what its SOCI backend needs to connect.

#include <string>

#include "loupe/db/dialect.hpp"
#include "loupe/export.hpp"

namespace loupe {

struct DatabaseTarget {
    Dialect dialect = Dialect::sqlite;
    /// SQLite: the file path. PostgreSQL: a libpq URI that SOCI passes on unchanged (a given
    /// URI as is, plus application_name=loupe when it holds no "="; a conninfo string turned
    /// into the equivalent postgresql://?key=value&... URI).
    std::string location;
};

/// `sqlite:<path>`, `postgresql://...` / `postgres://...` (libpq URI) or
/// `postgresql:<conninfo>`. Throws std::runtime_error (URL masked) for anything else.
LOUPE_API DatabaseTarget parse_database_url(const std::string& url);

/// `url` with any password replaced by `***` (URI user info, `password=` in a conninfo or a
/// URI query), fit for error messages and logs.
LOUPE_API std::string mask_database_url(const std::string& url);

}  // namespace loupe
