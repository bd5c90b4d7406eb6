#include "loupe/jose/jwk.hpp"

#include <openssl/core_names.h>
#include <openssl/pem.h>

#include <stdexcept>

#include "jose/openssl_handles.hpp"
#include "loupe/crypto/encoding.hpp"

namespace loupe::jose {
namespace {

constexpr int min_rsa_bits = 2048;
constexpr std::size_t p256_coordinate_size = 32;

bool fail(std::string* why, std::string message) {
    if (why != nullptr) {
        *why = std::move(message);
    }
    return false;
}

/// A string member, "" when absent or of another type.
std::string text_member(const Json& object, const char* name) {
    const auto found = object.find(name);
    return found != object.end() && found->is_string() ? found->get<std::string>() : "";
}

/// A base64url member of a JWK, decoded; nullopt when absent or not base64url.
std::optional<std::string> member_bytes(const Json& jwk, const char* name) {
    const auto found = jwk.find(name);
    if (found == jwk.end() || !found->is_string()) {
        return std::nullopt;
    }
    auto bytes = crypto::base64url_decode(found->get_ref<const std::string&>());
    if (!bytes || bytes->empty()) {
        return std::nullopt;
    }
    return bytes;
}

BigNumber big_number(const std::string& bytes) {
    return BigNumber(BN_bin2bn(reinterpret_cast<const unsigned char*>(bytes.data()),
                               static_cast<int>(bytes.size()), nullptr));
}

std::shared_ptr<EVP_PKEY> key_from_params(const char* type, const ParamBuilder& builder) {
    const Params params(OSSL_PARAM_BLD_to_param(builder.get()));
    const KeyContext context(EVP_PKEY_CTX_new_from_name(nullptr, type, nullptr));
    EVP_PKEY* key = nullptr;
    if (!params || !context || EVP_PKEY_fromdata_init(context.get()) != 1 ||
        EVP_PKEY_fromdata(context.get(), &key, EVP_PKEY_PUBLIC_KEY, params.get()) != 1) {
        return nullptr;
    }
    return share_key(key);
}

std::shared_ptr<EVP_PKEY> rsa_key(const Json& jwk, std::string* why) {
    const auto n = member_bytes(jwk, "n");
    const auto e = member_bytes(jwk, "e");
    if (!n || !e) {
        fail(why, "an RSA key needs base64url members n and e");
        return nullptr;
    }
    const BigNumber modulus = big_number(*n);
    const BigNumber exponent = big_number(*e);
    const ParamBuilder builder(OSSL_PARAM_BLD_new());
    if (!modulus || !exponent || !builder ||
        OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_N, modulus.get()) != 1 ||
        OSSL_PARAM_BLD_push_BN(builder.get(), OSSL_PKEY_PARAM_RSA_E, exponent.get()) != 1) {
        fail(why, "the RSA key's members could not be read");
        return nullptr;
    }
    auto key = key_from_params("RSA", builder);
    if (!key) {
        fail(why, "OpenSSL refused the RSA key");
        return nullptr;
    }
    if (EVP_PKEY_get_bits(key.get()) < min_rsa_bits) {
        fail(why, "the RSA key has fewer than 2048 bits");
        return nullptr;
    }
    return key;
}

std::shared_ptr<EVP_PKEY> ec_key(const Json& jwk, std::string* why) {
    if (text_member(jwk, "crv") != "P-256") {
        fail(why, "an EC key must be on the curve P-256");
        return nullptr;
    }
    const auto x = member_bytes(jwk, "x");
    const auto y = member_bytes(jwk, "y");
    if (!x || !y || x->size() != p256_coordinate_size || y->size() != p256_coordinate_size) {
        fail(why, "a P-256 key needs x and y of 32 bytes each, base64url");
        return nullptr;
    }
    const std::string point = "\x04" + *x + *y;  // the uncompressed form
    const ParamBuilder builder(OSSL_PARAM_BLD_new());
    if (!builder ||
        OSSL_PARAM_BLD_push_utf8_string(builder.get(), OSSL_PKEY_PARAM_GROUP_NAME, "prime256v1",
                                        0) != 1 ||
        OSSL_PARAM_BLD_push_octet_string(builder.get(), OSSL_PKEY_PARAM_PUB_KEY, point.data(),
                                         point.size()) != 1) {
        fail(why, "the EC key's members could not be read");
        return nullptr;
    }
    auto key = key_from_params("EC", builder);
    const KeyContext check(key ? EVP_PKEY_CTX_new_from_pkey(nullptr, key.get(), nullptr) : nullptr);
    if (!key || !check || EVP_PKEY_public_check(check.get()) != 1) {
        fail(why, "the EC key's point is not on P-256");
        return nullptr;
    }
    return key;
}

/// The DER ECDSA-Sig-Value of a JWS ES256 signature (R || S, 32 bytes each).
std::optional<std::string> der_signature(std::string_view raw) {
    if (raw.size() != 2 * p256_coordinate_size) {
        return std::nullopt;
    }
    EcSignature signature(ECDSA_SIG_new());
    BigNumber r = big_number(std::string(raw.substr(0, p256_coordinate_size)));
    BigNumber s = big_number(std::string(raw.substr(p256_coordinate_size)));
    if (!signature || !r || !s || ECDSA_SIG_set0(signature.get(), r.get(), s.get()) != 1) {
        return std::nullopt;
    }
    (void)r.release();  // owned by the signature now
    (void)s.release();
    const int size = i2d_ECDSA_SIG(signature.get(), nullptr);
    if (size <= 0) {
        return std::nullopt;
    }
    std::string der(static_cast<std::size_t>(size), '\0');
    auto* out = reinterpret_cast<unsigned char*>(der.data());
    i2d_ECDSA_SIG(signature.get(), &out);
    return der;
}

/// The JWS form (R || S) of a DER ECDSA signature.
std::string raw_signature(const std::string& der) {
    const auto* in = reinterpret_cast<const unsigned char*>(der.data());
    const EcSignature signature(d2i_ECDSA_SIG(nullptr, &in, static_cast<long>(der.size())));
    if (!signature) {
        throw std::runtime_error("OpenSSL gave an unreadable ECDSA signature");
    }
    const BIGNUM* r = nullptr;
    const BIGNUM* s = nullptr;
    ECDSA_SIG_get0(signature.get(), &r, &s);
    std::string raw(2 * p256_coordinate_size, '\0');
    auto* bytes = reinterpret_cast<unsigned char*>(raw.data());
    if (BN_bn2binpad(r, bytes, p256_coordinate_size) < 0 ||
        BN_bn2binpad(s, bytes + p256_coordinate_size, p256_coordinate_size) < 0) {
        throw std::runtime_error("OpenSSL gave an ECDSA signature too large for P-256");
    }
    return raw;
}

std::string big_number_param(EVP_PKEY* key, const char* name, int width) {
    BIGNUM* value = nullptr;
    if (EVP_PKEY_get_bn_param(key, name, &value) != 1) {
        throw std::runtime_error(std::string("OpenSSL: no key parameter ") + name);
    }
    const BigNumber owned(value);
    const int size = width > 0 ? width : BN_num_bytes(value);
    std::string bytes(static_cast<std::size_t>(size), '\0');
    BN_bn2binpad(value, reinterpret_cast<unsigned char*>(bytes.data()), size);
    return bytes;
}

bool is_p256(EVP_PKEY* key) {
    char group[64] = {};
    std::size_t length = 0;
    return EVP_PKEY_get_utf8_string_param(key, OSSL_PKEY_PARAM_GROUP_NAME, group, sizeof group,
                                          &length) == 1 &&
           std::string_view(group, length) == "prime256v1";
}

}  // namespace

std::optional<Algorithm> algorithm_named(std::string_view name) {
    if (name == "RS256") {
        return Algorithm::rs256;
    }
    if (name == "ES256") {
        return Algorithm::es256;
    }
    return std::nullopt;
}

std::string_view name_of(Algorithm algorithm) {
    return algorithm == Algorithm::rs256 ? "RS256" : "ES256";
}

std::optional<JsonWebKey> JsonWebKey::from_json(const Json& jwk, std::string* why) {
    if (!jwk.is_object()) {
        fail(why, "a JWK is a JSON object");
        return std::nullopt;
    }
    if (jwk.contains("use") && jwk["use"] != "sig") {
        fail(why, "the key is not for signatures (use)");
        return std::nullopt;
    }
    JsonWebKey key;
    const std::string type = text_member(jwk, "kty");
    if (type == "RSA") {
        key.algorithm_ = Algorithm::rs256;
        key.key_ = rsa_key(jwk, why);
    } else if (type == "EC") {
        key.algorithm_ = Algorithm::es256;
        key.key_ = ec_key(jwk, why);
    } else {
        fail(why, "unsupported key type \"" + type + "\" (RSA or EC)");
        return std::nullopt;
    }
    if (!key.key_) {
        return std::nullopt;
    }
    if (jwk.contains("alg")) {
        const auto* alg =
            jwk["alg"].is_string() ? &jwk["alg"].get_ref<const std::string&>() : nullptr;
        if (alg == nullptr || algorithm_named(*alg) != key.algorithm_) {
            fail(why, "the key's alg is not " + std::string(name_of(key.algorithm_)));
            return std::nullopt;
        }
        key.names_algorithm_ = true;
    }
    if (jwk.contains("kid")) {
        if (!jwk["kid"].is_string()) {
            fail(why, "the key's kid is not a string");
            return std::nullopt;
        }
        key.key_id_ = jwk["kid"].get<std::string>();
    }
    return key;
}

bool JsonWebKey::verifies(Algorithm algorithm, std::string_view input,
                          std::string_view signature) const {
    if (algorithm != algorithm_) {
        return false;
    }
    std::string der;
    if (algorithm == Algorithm::es256) {
        auto converted = der_signature(signature);
        if (!converted) {
            return false;
        }
        der = std::move(*converted);
        signature = der;
    }
    const DigestContext context(EVP_MD_CTX_new());
    return context &&
           EVP_DigestVerifyInit(context.get(), nullptr, EVP_sha256(), nullptr, key_.get()) == 1 &&
           EVP_DigestVerify(context.get(), reinterpret_cast<const unsigned char*>(signature.data()),
                            signature.size(), reinterpret_cast<const unsigned char*>(input.data()),
                            input.size()) == 1;
}

JsonWebKeySet JsonWebKeySet::from_json(const Json& document) {
    if (!document.is_object() || !document.contains("keys") || !document["keys"].is_array()) {
        throw std::invalid_argument("a JWKS is an object with an array \"keys\"");
    }
    JsonWebKeySet set;
    for (const auto& entry : document["keys"]) {
        if (auto key = JsonWebKey::from_json(entry)) {
            set.keys_.push_back(std::move(*key));
        }
    }
    return set;
}

const JsonWebKey* JsonWebKeySet::find(std::string_view key_id) const {
    for (const auto& key : keys_) {
        if (key.key_id() == key_id) {
            return &key;
        }
    }
    return nullptr;
}

SigningKey SigningKey::from_pem(std::string_view pem) {
    const Bio bio(BIO_new_mem_buf(pem.data(), static_cast<int>(pem.size())));
    EVP_PKEY* read = bio ? PEM_read_bio_PrivateKey(bio.get(), nullptr, nullptr, nullptr) : nullptr;
    if (read == nullptr) {
        throw std::invalid_argument("no PEM private key (RSA or EC P-256) could be read");
    }
    SigningKey key;
    key.key_ = share_key(read);
    if (EVP_PKEY_is_a(read, "RSA") && EVP_PKEY_get_bits(read) >= min_rsa_bits) {
        key.algorithm_ = Algorithm::rs256;
    } else if (EVP_PKEY_is_a(read, "EC") && is_p256(read)) {
        key.algorithm_ = Algorithm::es256;
    } else {
        throw std::invalid_argument("the PEM key is neither RSA of 2048 bits or more nor EC P-256");
    }
    return key;
}

SigningKey SigningKey::generate(Algorithm algorithm) {
    EVP_PKEY* made = algorithm == Algorithm::rs256
                         ? EVP_PKEY_Q_keygen(nullptr, nullptr, "RSA", size_t{2048})
                         : EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256");
    if (made == nullptr) {
        throw std::runtime_error("OpenSSL could not generate a key");
    }
    SigningKey key;
    key.algorithm_ = algorithm;
    key.key_ = share_key(made);
    return key;
}

std::string SigningKey::sign(std::string_view input) const {
    const DigestContext context(EVP_MD_CTX_new());
    std::size_t size = 0;
    if (!context ||
        EVP_DigestSignInit(context.get(), nullptr, EVP_sha256(), nullptr, key_.get()) != 1 ||
        EVP_DigestSign(context.get(), nullptr, &size,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
        throw std::runtime_error("OpenSSL could not sign");
    }
    std::string signature(size, '\0');
    if (EVP_DigestSign(context.get(), reinterpret_cast<unsigned char*>(signature.data()), &size,
                       reinterpret_cast<const unsigned char*>(input.data()), input.size()) != 1) {
        throw std::runtime_error("OpenSSL could not sign");
    }
    signature.resize(size);
    return algorithm_ == Algorithm::es256 ? raw_signature(signature) : signature;
}

Json SigningKey::public_jwk(const std::string& key_id) const {
    Json jwk{{"kid", key_id}, {"alg", name_of(algorithm_)}, {"use", "sig"}};
    if (algorithm_ == Algorithm::rs256) {
        jwk["kty"] = "RSA";
        jwk["n"] = crypto::base64url_encode(big_number_param(key_.get(), OSSL_PKEY_PARAM_RSA_N, 0));
        jwk["e"] = crypto::base64url_encode(big_number_param(key_.get(), OSSL_PKEY_PARAM_RSA_E, 0));
    } else {
        const int width = static_cast<int>(p256_coordinate_size);
        jwk["kty"] = "EC";
        jwk["crv"] = "P-256";
        jwk["x"] =
            crypto::base64url_encode(big_number_param(key_.get(), OSSL_PKEY_PARAM_EC_PUB_X, width));
        jwk["y"] =
            crypto::base64url_encode(big_number_param(key_.get(), OSSL_PKEY_PARAM_EC_PUB_Y, width));
    }
    return jwk;
}

std::string SigningKey::to_pem() const {
    const Bio bio(BIO_new(BIO_s_mem()));
    if (!bio || PEM_write_bio_PrivateKey(bio.get(), key_.get(), nullptr, nullptr, 0, nullptr,
                                         nullptr) != 1) {
        throw std::runtime_error("OpenSSL could not write the key");
    }
    char* data = nullptr;
    const long size = BIO_get_mem_data(bio.get(), &data);
    return std::string(data, static_cast<std::size_t>(size));
}

}  // namespace loupe::jose
