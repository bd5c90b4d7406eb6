#include "loupe/jose/pkce.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/crypto/random.hpp"

namespace loupe::jose {

Pkce new_pkce() {
    // 32 bytes give the 43-character verifier RFC 7636 recommends (256 bits of entropy);
    // base64url's alphabet lies within the verifier's unreserved characters.
    std::string verifier = crypto::random_base64url(32);
    std::string challenge = s256_challenge(verifier);
    return Pkce{std::move(verifier), std::move(challenge)};
}

std::string s256_challenge(std::string_view verifier) {
    return crypto::base64url_encode(crypto::sha256(verifier));
}

}  // namespace loupe::jose
