#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::web {

/// The web plugin's tables: browser sessions, one-time sign-in links and the thumbnail cache.
void add_migrations(Migrations& migrations);

}  // namespace loupe::web
