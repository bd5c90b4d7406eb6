#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::sso {

void add_migrations(Migrations& migrations);

}  // namespace loupe::sso
