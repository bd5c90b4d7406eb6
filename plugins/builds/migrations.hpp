#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::builds {

/// The builds track. Append-only: a shipped step is never edited.
void add_migrations(Migrations& migrations);

}  // namespace loupe::builds
