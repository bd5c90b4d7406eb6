#pragma once
// JSON Web Tokens in the JWS compact serialization (RFC 7519, RFC 7515), checked the way an
// OpenID Connect relying party or a CI token exchange must: the signature first (RS256 or
// ES256 only, the key picked by `kid`, an algorithm the key does not sign with refused), then
// the claims `iss`, `aud` (a string or an array), `exp`, `nbf` and `iat`, with a small leeway
// for clocks that differ, against a clock the caller may inject. A failure is a value naming
// the check that failed, never an exception.
//
//     jose::JwtExpectations expect{.issuer = "https://token.actions.githubusercontent.com",
//                                  .audiences = {"https://loupe.example.com"}};
//     const auto checked = jose::verify_jwt(token, keys, expect);
//     if (!checked) return unauthorized(checked.error().message);   // "exp: the token expired …"
//     const std::string repository = checked.claims().value("repository", "");

#include <chrono>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/jose/jwk.hpp"
#include "loupe/json.hpp"

namespace loupe::jose {

/// Which check a token failed.
enum class JwtFailure {
    malformed,              ///< not three base64url parts of a JSON header and claims object
    unsupported_algorithm,  ///< `alg` is not RS256 or ES256 (or not one the caller accepts)
    unknown_key,            ///< no key with the token's `kid` (or none to choose without one)
    bad_signature,          ///< the signature does not verify (a tampered token)
    keys_unavailable,       ///< the key set could not be fetched (JwksCache)
    expired,                ///< `exp` has passed
    not_yet_valid,          ///< `nbf` is still to come
    issued_in_future,       ///< `iat` is after now
    wrong_issuer,           ///< `iss` is not the expected issuer
    wrong_audience,         ///< `aud` names none of the expected audiences
    missing_claim,          ///< a required claim is absent or of the wrong type
};
LOUPE_API std::string_view name_of(JwtFailure failure);

struct JwtError {
    JwtFailure failure = JwtFailure::malformed;
    std::string message;  ///< names the check: "exp: the token expired at …"
};

/// What a token must satisfy.
struct JwtExpectations {
    std::string issuer{};                  ///< `iss` must equal it (empty: not checked)
    std::vector<std::string> audiences{};  ///< `aud` must hold one of them (empty: not checked)
    std::vector<Algorithm> algorithms{Algorithm::rs256, Algorithm::es256};
    std::chrono::seconds leeway{60};  ///< allowed clock difference for exp, nbf and iat
    bool require_expiry = true;       ///< refuse a token without `exp`
    /// The time in epoch seconds (the system clock when unset): tests inject theirs.
    std::function<int64_t()> now_s{};
};

/// A token that passed every check, or why it did not.
class LOUPE_API JwtVerification {
public:
    static JwtVerification passed(Json header, Json claims);
    static JwtVerification failed(JwtFailure failure, std::string message);

    explicit operator bool() const { return !error_; }
    const JwtError& error() const { return *error_; }  ///< only when it failed
    const Json& header() const { return header_; }
    const Json& claims() const { return claims_; }

private:
    Json header_;
    Json claims_;
    std::optional<JwtError> error_;
};

/// The protected header of a compact JWS, decoded but not trusted (to find its `kid`).
LOUPE_API std::optional<Json> peek_jwt_header(std::string_view token);

/// Checks `token` against `keys` and `expect`.
LOUPE_API JwtVerification verify_jwt(std::string_view token, const JsonWebKeySet& keys,
                                     const JwtExpectations& expect);

/// A compact JWS of `claims` signed by `key`, its header `{"alg", "typ": "JWT"}` plus `kid`
/// when not empty.
LOUPE_API std::string sign_jwt(const Json& claims, const SigningKey& key,
                               const std::string& key_id = "");

}  // namespace loupe::jose
