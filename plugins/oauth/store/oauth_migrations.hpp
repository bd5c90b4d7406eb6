#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::oauth {

void add_migrations(Migrations& migrations);

}  // namespace loupe::oauth
