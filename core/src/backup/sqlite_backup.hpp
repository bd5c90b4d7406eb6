#pragma once
// A consistent copy of a live SQLite database with SQLite's online backup API: one step over
// the whole database inside one read transaction (in WAL mode it does not block the server's
// writers), so the copy is the database as of one instant. The copy is a single file (rollback
// journal mode); Loupe turns WAL on again when it opens it.

#include <cstdint>
#include <string>

#include "loupe/export.hpp"

namespace loupe {

/// Copies the database at `source_path` into the new file `target_path`; returns its size.
/// Throws std::runtime_error with SQLite's message.
LOUPE_API uint64_t backup_sqlite_database(const std::string& source_path,
                                          const std::string& target_path);

}  // namespace loupe
