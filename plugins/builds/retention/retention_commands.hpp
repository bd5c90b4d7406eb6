#pragma once
// `loupe admin prune [--dry-run] [--project ACCOUNT/NAME] [--skip-blobs] [--json]` and
// `loupe admin retention --project ACCOUNT/NAME [--days N | --default] [--json]`.

#include "loupe/host.hpp"
#include "retention/retention.hpp"

namespace loupe::builds {

void add_retention_commands(Host& host, Retention& retention);

}  // namespace loupe::builds
