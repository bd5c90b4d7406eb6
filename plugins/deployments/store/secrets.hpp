#pragma once
// The plugin's signing secrets, kept in the database so every instance sharing it signs and
// verifies alike.

#include <string>

namespace soci {
class session;
}

namespace loupe::deployments {

/// The secret named `name`, created (32 random bytes, hex) on first use.
std::string load_or_create_secret(soci::session& session, const std::string& name);

}  // namespace loupe::deployments
