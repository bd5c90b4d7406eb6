#pragma once
// The automation plugin's tables: its rules, each rule's webhook signing secret (a private
// table: an HMAC key must be readable to sign, so it is kept as issued, never shown again), the
// runs a matching event produced and one row per action of a run (its delivery's outcome).

#include "loupe/db/migrations.hpp"

namespace loupe::automation {

void add_automation_migrations(Migrations& migrations);

}  // namespace loupe::automation
