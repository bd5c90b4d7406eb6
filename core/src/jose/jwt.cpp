#include "loupe/jose/jwt.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>

#include "loupe/crypto/encoding.hpp"

namespace loupe::jose {
namespace {

struct CompactParts {
    std::string_view header;
    std::string_view payload;
    std::string_view signature;
};

/// The three parts of a compact JWS (a JWE has five: not a signed token).
std::optional<CompactParts> split_compact(std::string_view token) {
    const auto first = token.find('.');
    const auto second = first == std::string_view::npos ? first : token.find('.', first + 1);
    if (second == std::string_view::npos || token.find('.', second + 1) != std::string_view::npos) {
        return std::nullopt;
    }
    return CompactParts{token.substr(0, first), token.substr(first + 1, second - first - 1),
                        token.substr(second + 1)};
}

std::optional<Json> decode_object(std::string_view part) {
    const auto bytes = crypto::base64url_decode(part);
    if (!bytes) {
        return std::nullopt;
    }
    auto object = Json::parse(*bytes, nullptr, false);
    if (object.is_discarded() || !object.is_object()) {
        return std::nullopt;
    }
    return object;
}

int64_t system_now_s() {
    return std::chrono::duration_cast<std::chrono::seconds>(
               std::chrono::system_clock::now().time_since_epoch())
        .count();
}

/// A NumericDate claim (seconds, possibly fractional), rounded down; nullopt when absent.
/// `present` tells whether the claim is there at all (then of the right type or not).
std::optional<int64_t> numeric_date(const Json& claims, const char* name, bool& wrong_type) {
    const auto found = claims.find(name);
    if (found == claims.end()) {
        return std::nullopt;
    }
    if (!found->is_number() || !std::isfinite(found->get<double>())) {
        wrong_type = true;
        return std::nullopt;
    }
    return found->is_number_integer() ? found->get<int64_t>()
                                      : static_cast<int64_t>(std::floor(found->get<double>()));
}

JwtVerification check_signature(const CompactParts& parts, const Json& header,
                                const JsonWebKeySet& keys, const JwtExpectations& expect) {
    const auto alg = header.find("alg");
    const auto algorithm = alg != header.end() && alg->is_string()
                               ? algorithm_named(alg->get_ref<const std::string&>())
                               : std::nullopt;
    if (!algorithm || std::find(expect.algorithms.begin(), expect.algorithms.end(), *algorithm) ==
                          expect.algorithms.end()) {
        return JwtVerification::failed(
            JwtFailure::unsupported_algorithm,
            "alg: " + (alg != header.end() ? alg->dump() : std::string("absent")) +
                " is not an accepted algorithm (RS256, ES256)");
    }
    // Extensions the token says must be understood: this verifier understands none.
    if (header.contains("crit")) {
        return JwtVerification::failed(JwtFailure::unsupported_algorithm,
                                       "crit: the token requires extensions " +
                                           header["crit"].dump() + " this verifier lacks");
    }
    const JsonWebKey* key = nullptr;
    if (const auto kid = header.find("kid"); kid != header.end()) {
        if (!kid->is_string()) {
            return JwtVerification::failed(JwtFailure::malformed, "kid: not a string");
        }
        key = keys.find(kid->get_ref<const std::string&>());
        if (key == nullptr) {
            return JwtVerification::failed(JwtFailure::unknown_key,
                                           "kid: no key " + kid->dump() + " in the key set");
        }
    } else {
        // Without a kid, only a key set with a single key for the algorithm says which.
        for (const auto& candidate : keys.keys()) {
            if (candidate.algorithm() == *algorithm) {
                if (key != nullptr) {
                    return JwtVerification::failed(
                        JwtFailure::unknown_key,
                        "kid: absent, and several keys of the key set could have signed");
                }
                key = &candidate;
            }
        }
        if (key == nullptr) {
            return JwtVerification::failed(JwtFailure::unknown_key,
                                           "kid: absent, and no key for " + alg->dump());
        }
    }
    if (key->algorithm() != *algorithm) {
        return JwtVerification::failed(JwtFailure::unsupported_algorithm,
                                       "alg: " + alg->dump() + " is not what the key " +
                                           Json(key->key_id()).dump() + " signs with (" +
                                           std::string(name_of(key->algorithm())) + ")");
    }
    const auto signature = crypto::base64url_decode(parts.signature);
    const std::string input = std::string(parts.header) + "." + std::string(parts.payload);
    if (!signature || !key->verifies(*algorithm, input, *signature)) {
        return JwtVerification::failed(
            JwtFailure::bad_signature,
            "signature: does not verify under the key " + Json(key->key_id()).dump());
    }
    return JwtVerification::passed(header, nullptr);
}

JwtVerification check_claims(const Json& header, Json claims, const JwtExpectations& expect) {
    const int64_t now = expect.now_s ? expect.now_s() : system_now_s();
    const int64_t leeway = expect.leeway.count();
    bool wrong_type = false;
    const auto expires = numeric_date(claims, "exp", wrong_type);
    const auto not_before = numeric_date(claims, "nbf", wrong_type);
    const auto issued = numeric_date(claims, "iat", wrong_type);
    if (wrong_type) {
        return JwtVerification::failed(JwtFailure::missing_claim,
                                       "exp, nbf, iat: a time claim is not a number of seconds");
    }
    if (!expires && expect.require_expiry) {
        return JwtVerification::failed(JwtFailure::missing_claim, "exp: the token has no expiry");
    }
    if (expires && now >= *expires + leeway) {
        return JwtVerification::failed(JwtFailure::expired,
                                       "exp: the token expired at " + std::to_string(*expires) +
                                           " (now " + std::to_string(now) + ", leeway " +
                                           std::to_string(leeway) + " s)");
    }
    if (not_before && now + leeway < *not_before) {
        return JwtVerification::failed(JwtFailure::not_yet_valid, "nbf: the token is valid from " +
                                                                      std::to_string(*not_before) +
                                                                      " (now " +
                                                                      std::to_string(now) + ")");
    }
    if (issued && now + leeway < *issued) {
        return JwtVerification::failed(JwtFailure::issued_in_future,
                                       "iat: the token says it was issued at " +
                                           std::to_string(*issued) + ", after now (" +
                                           std::to_string(now) + ")");
    }
    if (!expect.issuer.empty()) {
        const auto iss = claims.find("iss");
        if (iss == claims.end() || !iss->is_string()) {
            return JwtVerification::failed(JwtFailure::missing_claim, "iss: absent");
        }
        if (*iss != expect.issuer) {
            return JwtVerification::failed(
                JwtFailure::wrong_issuer,
                "iss: " + iss->dump() + " is not " + Json(expect.issuer).dump());
        }
    }
    if (!expect.audiences.empty()) {
        const auto aud = claims.find("aud");
        if (aud == claims.end() || !(aud->is_string() || aud->is_array())) {
            return JwtVerification::failed(JwtFailure::missing_claim, "aud: absent");
        }
        const auto named = [&](const Json& value) {
            return value.is_string() &&
                   std::find(expect.audiences.begin(), expect.audiences.end(),
                             value.get_ref<const std::string&>()) != expect.audiences.end();
        };
        const bool matched =
            aud->is_string() ? named(*aud) : std::any_of(aud->begin(), aud->end(), named);
        if (!matched) {
            return JwtVerification::failed(
                JwtFailure::wrong_audience,
                "aud: " + aud->dump() + " names none of " + Json(expect.audiences).dump());
        }
    }
    return JwtVerification::passed(header, std::move(claims));
}

}  // namespace

std::string_view name_of(JwtFailure failure) {
    switch (failure) {
        case JwtFailure::malformed:
            return "malformed";
        case JwtFailure::unsupported_algorithm:
            return "unsupported_algorithm";
        case JwtFailure::unknown_key:
            return "unknown_key";
        case JwtFailure::bad_signature:
            return "bad_signature";
        case JwtFailure::keys_unavailable:
            return "keys_unavailable";
        case JwtFailure::expired:
            return "expired";
        case JwtFailure::not_yet_valid:
            return "not_yet_valid";
        case JwtFailure::issued_in_future:
            return "issued_in_future";
        case JwtFailure::wrong_issuer:
            return "wrong_issuer";
        case JwtFailure::wrong_audience:
            return "wrong_audience";
        case JwtFailure::missing_claim:
            return "missing_claim";
    }
    return "unknown";
}

JwtVerification JwtVerification::passed(Json header, Json claims) {
    JwtVerification result;
    result.header_ = std::move(header);
    result.claims_ = std::move(claims);
    return result;
}

JwtVerification JwtVerification::failed(JwtFailure failure, std::string message) {
    JwtVerification result;
    result.error_ = JwtError{failure, std::move(message)};
    return result;
}

std::optional<Json> peek_jwt_header(std::string_view token) {
    const auto parts = split_compact(token);
    return parts ? decode_object(parts->header) : std::nullopt;
}

JwtVerification verify_jwt(std::string_view token, const JsonWebKeySet& keys,
                           const JwtExpectations& expect) {
    const auto parts = split_compact(token);
    if (!parts) {
        return JwtVerification::failed(JwtFailure::malformed,
                                       "token: not a compact JWS (three parts separated by '.')");
    }
    const auto header = decode_object(parts->header);
    if (!header) {
        return JwtVerification::failed(JwtFailure::malformed,
                                       "header: not a base64url JSON object");
    }
    auto claims = decode_object(parts->payload);
    if (!claims) {
        return JwtVerification::failed(JwtFailure::malformed,
                                       "payload: not a base64url JSON object of claims");
    }
    auto signed_ok = check_signature(*parts, *header, keys, expect);
    if (!signed_ok) {
        return signed_ok;
    }
    return check_claims(*header, std::move(*claims), expect);
}

std::string sign_jwt(const Json& claims, const SigningKey& key, const std::string& key_id) {
    Json header{{"alg", name_of(key.algorithm())}, {"typ", "JWT"}};
    if (!key_id.empty()) {
        header["kid"] = key_id;
    }
    const std::string input =
        crypto::base64url_encode(header.dump()) + "." + crypto::base64url_encode(claims.dump());
    return input + "." + crypto::base64url_encode(key.sign(input));
}

}  // namespace loupe::jose
