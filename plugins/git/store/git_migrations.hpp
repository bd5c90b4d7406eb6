#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::git {

/// The git plugin's schema track: repository links, per-project settings, commit statuses.
void add_git_migrations(Migrations& migrations);

}  // namespace loupe::git
