#pragma once

#include "loupe/host.hpp"

namespace loupe::builds {

/// `loupe diff BASE HEAD [--threshold 0.5] [--out mask.png] [--json]`: exit 0 unchanged,
/// 1 changed, 2 error (as odiff).
void add_diff_command(Host& host);

}  // namespace loupe::builds
