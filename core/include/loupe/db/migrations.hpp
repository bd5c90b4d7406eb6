#pragma once
// A plugin's schema track: numbered, forward-only steps. A shipped step is never edited: its
// checksum is recorded and a changed step refuses to start ("migration builds/3 changed after
// it was applied"). Each step runs in its own transaction with its schema_migrations row.

#include <string>

#include "loupe/db/dialect.hpp"
#include "loupe/export.hpp"

namespace loupe {

struct MigrationStep {
    int version = 0;
    std::string name;
    /// Portable SQL (see dialect.hpp), statements separated by ";" at line ends.
    std::string sql;
};

class LOUPE_API Migrations {
public:
    virtual ~Migrations();
    /// Adds the next step of the calling plugin's track; versions must be 1, 2, 3, ...
    virtual void add(int version, std::string name, std::string sql) = 0;
};

}  // namespace loupe
