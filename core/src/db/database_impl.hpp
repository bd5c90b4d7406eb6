#pragma once

#include <cstddef>
#include <memory>
#include <string>

#include "loupe/db/database.hpp"
#include "loupe/export.hpp"

namespace loupe {

/// Opens a pool on `url`: `sqlite:<path>` (WAL, busy timeout, foreign keys; parent folder
/// created) or `postgresql://user:pass@host:port/db` / `postgresql:<libpq conninfo>`.
/// Throws std::runtime_error with a message naming the URL (password masked) on failure.
LOUPE_API std::unique_ptr<Database> open_database(const std::string& url, std::size_t pool_size);

/// True when `select 1` answers (for /readyz).
LOUPE_API bool database_ready(Database& database);

}  // namespace loupe
