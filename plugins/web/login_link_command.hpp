#pragma once

#include <memory>

#include "loupe/host.hpp"
#include "session/session_manager.hpp"

namespace loupe::web {

/// `loupe admin user login-link --user U [--json]`: prints a one-time sign-in link;
/// `loupe admin user sign-out --user U [--json]`: ends every browser session of a user.
void add_user_commands(Host& host, std::shared_ptr<SessionManager> sessions);

}  // namespace loupe::web
