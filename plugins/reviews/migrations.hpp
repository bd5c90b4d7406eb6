#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::reviews {

void add_migrations(Migrations& migrations);

}  // namespace loupe::reviews
