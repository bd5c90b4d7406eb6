#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::deployments {

/// The deployments track. Append-only: a shipped step is never edited.
void add_migrations(Migrations& migrations);

}  // namespace loupe::deployments
