#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::notifications {

void add_notification_migrations(Migrations& migrations);

}  // namespace loupe::notifications
