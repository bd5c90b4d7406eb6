#pragma once
// Sign-ins in progress: created when the browser leaves for the provider, taken (read and
// deleted at once, so a state is used at most once) when it comes back. Kept by the SHA-256 of
// the state; an attempt older than the time to live is never taken and is deleted.

#include <soci/soci.h>

#include <cstdint>
#include <optional>
#include <string>

namespace loupe::sso::sign_in_attempts {

struct Attempt {
    std::string provider;
    std::string nonce;
    std::string code_verifier;
    std::string return_to;
    int64_t created_at = 0;
    /// A SAML sign-in between its two steps: the claims the verified response gave, kept until
    /// this browser comes back with the state's cookie.
    std::optional<std::string> verified_claims{};
};

/// Stores a new attempt under `state` (also deleting attempts older than `oldest_kept`).
void record(soci::session& session, const std::string& state, const Attempt& attempt,
            int64_t oldest_kept);

/// The attempt of `state` created at or after `oldest_kept`, deleted as it is read; nullopt
/// when unknown, already taken or too old.
std::optional<Attempt> take(soci::session& session, const std::string& state, int64_t oldest_kept);

}  // namespace loupe::sso::sign_in_attempts
