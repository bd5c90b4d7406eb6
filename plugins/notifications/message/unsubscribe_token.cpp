#include "message/unsubscribe_token.hpp"

#include <charconv>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/encoding.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::notifications {
namespace {

std::optional<int64_t> whole_number(std::string_view text) {
    int64_t value = 0;
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{} || end != text.data() + text.size() || text.empty()) {
        return std::nullopt;
    }
    return value;
}

}  // namespace

std::string sign_unsubscribe_token(std::string_view secret, const UnsubscribeClaim& claim) {
    const std::string body =
        std::to_string(claim.user_id) + "." + claim.kind + "." + std::to_string(claim.expires_at);
    const std::string encoded = crypto::base64url_encode(body);
    return encoded + "." + crypto::base64url_encode(crypto::hmac_sha256(secret, encoded));
}

std::optional<UnsubscribeClaim> verify_unsubscribe_token(std::string_view secret,
                                                         std::string_view token, int64_t now) {
    const auto dot = token.find('.');
    if (dot == std::string_view::npos) {
        return std::nullopt;
    }
    const auto encoded = token.substr(0, dot);
    const auto expected = crypto::base64url_encode(crypto::hmac_sha256(secret, encoded));
    if (!crypto::equal_in_constant_time(expected, token.substr(dot + 1))) {
        return std::nullopt;
    }
    const auto body = crypto::base64url_decode(encoded);
    if (!body) {
        return std::nullopt;
    }
    const auto parts = split(*body, '.');
    if (parts.size() != 3) {
        return std::nullopt;
    }
    const auto user_id = whole_number(parts[0]);
    const auto expires_at = whole_number(parts[2]);
    if (!user_id || !expires_at || parts[1].empty() || *expires_at <= now) {
        return std::nullopt;
    }
    return UnsubscribeClaim{*user_id, std::string(parts[1]), *expires_at};
}

}  // namespace loupe::notifications
