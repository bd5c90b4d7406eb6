#pragma once
// Proof Key for Code Exchange (RFC 7636) with the S256 method, as an OpenID Connect relying
// party sends it: a fresh random verifier kept by the relying party, and its challenge
// (base64url of its SHA-256) sent in the authorization request. The plain method is not
// offered: an intercepted authorization request must not reveal the verifier.

#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe::jose {

struct Pkce {
    std::string verifier;   ///< 43 characters of the unreserved set, from 32 random bytes
    std::string challenge;  ///< s256_challenge(verifier)
};

/// A new verifier and its challenge. Throws std::runtime_error without random bytes.
LOUPE_API Pkce new_pkce();
/// BASE64URL(SHA256(ASCII(verifier))), the S256 code challenge.
LOUPE_API std::string s256_challenge(std::string_view verifier);

}  // namespace loupe::jose
