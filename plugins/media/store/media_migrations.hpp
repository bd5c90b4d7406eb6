#pragma once

#include "loupe/db/migrations.hpp"

namespace loupe::media {

void add_media_migrations(Migrations& migrations);

}  // namespace loupe::media
