#pragma once
// Which user a provider's subject (`sub`) signs in as.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>

namespace loupe::sso::linked_identities {

/// The user linked to `subject` at `provider`; nullopt when none yet.
std::optional<int64_t> user_of(soci::session& session, const std::string& provider,
                               const std::string& subject);

/// Links `subject` at `provider` to `user_id` (or refreshes the link's email and time).
void link(soci::session& session, const std::string& provider, const std::string& subject,
          int64_t user_id, const std::string& email, int64_t now);

}  // namespace loupe::sso::linked_identities
