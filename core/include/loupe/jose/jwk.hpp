#pragma once
// JSON Web Keys (RFC 7517) for JOSE on OpenSSL: the public keys a JWT's signature is checked
// against (RSA from `n`/`e`, EC P-256 from `crv`/`x`/`y`), a key set (JWKS) with selection by
// `kid`, and the private keys Loupe signs with (PEM).

#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"
#include "loupe/json.hpp"

struct evp_pkey_st;  // OpenSSL's EVP_PKEY

namespace loupe::jose {

/// The algorithms of this module: RS256 (RSASSA-PKCS1-v1_5, SHA-256, keys of 2048 bits or more)
/// and ES256 (ECDSA on P-256, SHA-256). Nothing else is ever accepted ("none" and HMAC
/// included: a verifier never takes a public key for a shared secret).
enum class Algorithm { rs256, es256 };
LOUPE_API std::optional<Algorithm> algorithm_named(std::string_view name);
LOUPE_API std::string_view name_of(Algorithm algorithm);

/// A public key that checks signatures.
class LOUPE_API JsonWebKey {
public:
    /// The key of one JWK object; nullopt, with the reason in `why`, for a key it cannot use:
    /// another `kty` or curve, an RSA modulus under 2048 bits, a point off the curve, `use`
    /// other than "sig", missing or malformed members.
    static std::optional<JsonWebKey> from_json(const Json& jwk, std::string* why = nullptr);

    const std::string& key_id() const { return key_id_; }  ///< "" when the JWK has no kid
    Algorithm algorithm() const { return algorithm_; }     ///< what the key type signs with
    /// True when the JWK named its `alg` (then only that one is accepted).
    bool names_algorithm() const { return names_algorithm_; }
    /// True when `signature` signs `input` under this key with `algorithm` (which must be the
    /// key's own). ES256 signatures are the 64 bytes R || S of JWS.
    bool verifies(Algorithm algorithm, std::string_view input, std::string_view signature) const;

private:
    JsonWebKey() = default;
    std::string key_id_;
    Algorithm algorithm_ = Algorithm::rs256;
    bool names_algorithm_ = false;
    std::shared_ptr<evp_pkey_st> key_;
};

/// A JWKS document's usable keys, in document order.
class LOUPE_API JsonWebKeySet {
public:
    JsonWebKeySet() = default;
    /// `{"keys": [...]}`; keys it cannot use are left out (see JsonWebKey::from_json). Throws
    /// std::invalid_argument when the document is no key set at all.
    static JsonWebKeySet from_json(const Json& document);

    const std::vector<JsonWebKey>& keys() const { return keys_; }
    /// The key with this `kid`, or nullptr.
    const JsonWebKey* find(std::string_view key_id) const;

private:
    std::vector<JsonWebKey> keys_;
};

/// A private key Loupe signs with, from PEM (PKCS#1 or PKCS#8 RSA, SEC1 or PKCS#8 EC P-256).
class LOUPE_API SigningKey {
public:
    /// Throws std::invalid_argument when `pem` holds no such key.
    static SigningKey from_pem(std::string_view pem);
    /// A new key: RSA of 2048 bits, or EC P-256.
    static SigningKey generate(Algorithm algorithm);

    Algorithm algorithm() const { return algorithm_; }
    /// The signature of `input` (ES256: the 64 bytes R || S).
    std::string sign(std::string_view input) const;
    /// The public half as a JWK, with `kid` and `alg` set.
    Json public_jwk(const std::string& key_id) const;
    /// The private key as PKCS#8 PEM.
    std::string to_pem() const;

private:
    SigningKey() = default;
    Algorithm algorithm_ = Algorithm::rs256;
    std::shared_ptr<evp_pkey_st> key_;
};

}  // namespace loupe::jose
