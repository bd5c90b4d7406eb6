#include "session/session_tokens.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace loupe::web {
namespace {

constexpr std::size_t token_bytes = 32;
constexpr std::string_view csrf_label = "loupe web csrf v1";

std::string hex(const unsigned char* bytes, std::size_t size) {
    static constexpr char digits[] = "0123456789abcdef";
    std::string text;
    text.reserve(size * 2);
    for (std::size_t i = 0; i < size; ++i) {
        text.push_back(digits[bytes[i] >> 4]);
        text.push_back(digits[bytes[i] & 0x0f]);
    }
    return text;
}

std::string_view trim(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t')) {
        text.remove_suffix(1);
    }
    return text;
}

}  // namespace

std::string random_token() {
    std::array<unsigned char, token_bytes> bytes{};
    if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
        throw std::runtime_error("no random bytes from OpenSSL");
    }
    return hex(bytes.data(), bytes.size());
}

std::string token_hash(std::string_view token) {
    std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
    unsigned int size = 0;
    if (EVP_Digest(token.data(), token.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1) {
        throw std::runtime_error("SHA-256 failed");
    }
    return hex(digest.data(), size);
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
    std::array<unsigned char, EVP_MAX_MD_SIZE> mac{};
    unsigned int size = 0;
    if (HMAC(EVP_sha256(), session_token.data(), static_cast<int>(session_token.size()),
             reinterpret_cast<const unsigned char*>(csrf_label.data()), csrf_label.size(),
             mac.data(), &size) == nullptr) {
        throw std::runtime_error("HMAC-SHA256 failed");
    }
    return hex(mac.data(), size);
}

bool csrf_matches(std::string_view session_token, std::string_view presented) {
    const std::string expected = csrf_token(session_token);
    return presented.size() == expected.size() &&
           CRYPTO_memcmp(presented.data(), expected.data(), expected.size()) == 0;
}

std::optional<std::string> cookie_value(std::string_view cookie_header, std::string_view name) {
    while (!cookie_header.empty()) {
        const std::size_t end = cookie_header.find(';');
        const std::string_view pair = trim(cookie_header.substr(0, end));
        const std::size_t equals = pair.find('=');
        if (equals != std::string_view::npos && trim(pair.substr(0, equals)) == name) {
            std::string_view value = trim(pair.substr(equals + 1));
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
