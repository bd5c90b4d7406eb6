#include "actions/webhook_signature.hpp"

#include <stdexcept>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/crypto/random.hpp"

namespace loupe::automation {

namespace {
constexpr std::string_view secret_prefix = "whsec_";
}

std::string new_webhook_secret() {
    return std::string(secret_prefix) + crypto::base64_encode(crypto::random_bytes(24));
}

std::string webhook_signature(const std::string& secret, const std::string& id,
                              int64_t timestamp_seconds, const std::string& body) {
    const auto key =
        secret.starts_with(secret_prefix)
            ? crypto::base64_decode(std::string_view(secret).substr(secret_prefix.size()))
            : std::nullopt;
    if (!key)
        throw std::invalid_argument("not a whsec_ signing secret");
    const std::string signed_text = id + "." + std::to_string(timestamp_seconds) + "." + body;
    return "v1," + crypto::base64_encode(crypto::hmac_sha256(*key, signed_text));
}

}  // namespace loupe::automation
