#pragma once
// `loupe admin project link-github|link-gitlab|unlink|tokenless-auth|links`: the repository
// links and git settings of projects, from the command line (each a plugin command registered
// under its `admin GROUP ACTION` name). `--json` prints one JSON object. Exit codes as the
// core's admin commands: 0 done, 1 refused, 2 usage error.

#include "loupe/host.hpp"

namespace loupe::git {

void add_admin_commands(Host& host);

}  // namespace loupe::git
