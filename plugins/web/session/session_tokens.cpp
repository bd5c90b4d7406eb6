#include "session/session_tokens.hpp"

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/text/strings.hpp"

namespace loupe::web {
namespace {

constexpr std::size_t token_bytes = 32;
constexpr std::string_view csrf_label = "loupe web csrf v1";

}  // namespace

std::string random_token() {
    return crypto::random_hex(token_bytes);
}

std::string token_hash(std::string_view token) {
    return crypto::sha256_hex(token);
}

bool is_token_format(std::string_view token) {
    if (token.size() != token_bytes * 2) {
        return false;
    }
    for (char c : token) {
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) {
            return false;
        }
    }
    return true;
}

std::string csrf_token(std::string_view session_token) {
    return crypto::hmac_sha256_hex(session_token, csrf_label);
}

bool csrf_matches(std::string_view session_token, std::string_view presented) {
    return crypto::equal_in_constant_time(presented, csrf_token(session_token));
}

std::optional<std::string> cookie_value(std::string_view cookie_header, std::string_view name) {
    while (!cookie_header.empty()) {
        const std::size_t end = cookie_header.find(';');
        const std::string_view pair = trim(cookie_header.substr(0, end), http_whitespace);
        const std::size_t equals = pair.find('=');
        if (equals != std::string_view::npos &&
            trim(pair.substr(0, equals), http_whitespace) == name) {
            std::string_view value = trim(pair.substr(equals + 1), http_whitespace);
            if (value.size() >= 2 && value.front() == '"' && value.back() == '"') {
                value = value.substr(1, value.size() - 2);
            }
            return std::string(value);
        }
        if (end == std::string_view::npos) {
            break;
        }
        cookie_header.remove_prefix(end + 1);
    }
    return std::nullopt;
}

std::string_view session_cookie_name(bool secure) {
    return secure ? "__Host-loupe_session" : "loupe_session";
}

std::string session_cookie(std::string_view token, const CookieOptions& options) {
    std::string cookie =
        std::string(session_cookie_name(options.secure)) + "=" + std::string(token) +
        "; Path=/; Max-Age=" + std::to_string(options.max_age_s) + "; HttpOnly; SameSite=Lax";
    if (options.secure) {
        cookie += "; Secure";
    }
    return cookie;
}

std::string cleared_session_cookie(const CookieOptions& options) {
    CookieOptions expired = options;
    expired.max_age_s = 0;
    return session_cookie("", expired);
}

bool is_safe_method(std::string_view method) {
    return method == "GET" || method == "HEAD" || method == "OPTIONS";
}

}  // namespace loupe::web
