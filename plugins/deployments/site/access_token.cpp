#include "site/access_token.hpp"

#include <charconv>
#include <stdexcept>
#include <string_view>

#include "loupe/crypto/digest.hpp"

namespace loupe::deployments {

AccessTokens::AccessTokens(std::string secret) : secret_(std::move(secret)) {
    if (secret_.empty()) {
        throw std::invalid_argument("site access tokens need a secret");
    }
}

std::string AccessTokens::mac(const std::string& site_name, int64_t expires_s) const {
    const std::string message =
        "loupe-site-access\n" + site_name + "\n" + std::to_string(expires_s);
    return crypto::hmac_sha256_hex(secret_, message);
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
    const std::string_view given = std::string_view(token).substr(token.find('.') + 1);
    return crypto::equal_in_constant_time(given, mac(site_name, expires));
}

}  // namespace loupe::deployments
