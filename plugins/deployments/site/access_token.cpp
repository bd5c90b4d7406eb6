#include "site/access_token.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <charconv>
#include <stdexcept>
#include <string_view>

namespace loupe::deployments {

AccessTokens::AccessTokens(std::string secret) : secret_(std::move(secret)) {
    if (secret_.empty()) {
        throw std::invalid_argument("site access tokens need a secret");
    }
}

std::string AccessTokens::mac(const std::string& site_name, int64_t expires_s) const {
    const std::string message =
        "loupe-site-access\n" + site_name + "\n" + std::to_string(expires_s);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
             reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest,
             &length) == nullptr) {
        throw std::runtime_error("HMAC-SHA256 failed");
    }
    static constexpr std::string_view digits = "0123456789abcdef";
    std::string hex;
    for (unsigned int i = 0; i < length; ++i) {
        hex += digits[digest[i] >> 4];
        hex += digits[digest[i] & 15];
    }
    return hex;
}

std::string AccessTokens::issue(const std::string& site_name, int64_t expires_s) const {
    return std::to_string(expires_s) + "." + mac(site_name, expires_s);
}

int64_t AccessTokens::expiry_of(const std::string& token) {
    const std::size_t dot = token.find('.');
    int64_t expires = 0;
    if (dot == std::string::npos || dot == 0) {
        return 0;
    }
    const auto [end, error] = std::from_chars(token.data(), token.data() + dot, expires);
    return error == std::errc() && end == token.data() + dot ? expires : 0;
}

bool AccessTokens::verify(const std::string& site_name, const std::string& token,
                          int64_t now_s) const {
    const int64_t expires = expiry_of(token);
    if (expires <= 0 || expires < now_s) {
        return false;
    }
    const std::string expected = mac(site_name, expires);
    const std::string_view given = std::string_view(token).substr(token.find('.') + 1);
    return given.size() == expected.size() &&
           CRYPTO_memcmp(given.data(), expected.data(), expected.size()) == 0;
}

}  // namespace loupe::deployments
