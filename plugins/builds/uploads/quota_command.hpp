#pragma once
// `loupe admin quota --project ACCOUNT/NAME [--max-stored-mb N] [--max-screenshots N]
// [--default] [--json]`: shows or sets a project's upload quotas.

#include "loupe/host.hpp"
#include "uploads/upload_policy.hpp"

namespace loupe::builds {

void add_quota_command(Host& host, const UploadPolicy& policy);

}  // namespace loupe::builds
