#include "auth/token_format.hpp"

#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>
#include <openssl/err.h>
#include <openssl/rand.h>

#include <array>
#include <stdexcept>

namespace loupe {
namespace {

constexpr std::string_view alphabet = "abcdefghijklmnopqrstuvwxyz123456789";
// Bytes at or above the largest multiple of the alphabet size are rejected, so every
// character is equally likely (a plain `byte % 35` would favour the first 11).
constexpr unsigned rejection_bound = 256 - 256 % alphabet.size();

constexpr std::size_t project_random_length = 34;
constexpr std::size_t personal_random_length = 36;
constexpr std::size_t personal_token_length = 40;

}  // namespace

std::string random_token_characters(std::size_t count) {
    std::string result;
    result.reserve(count);
    std::array<unsigned char, 64> bytes{};
    while (result.size() < count) {
        if (RAND_bytes(bytes.data(), static_cast<int>(bytes.size())) != 1) {
            throw std::runtime_error("the system random generator failed (OpenSSL error " +
                                     std::to_string(ERR_get_error()) + ")");
        }
        for (unsigned char byte : bytes) {
            if (byte < rejection_bound && result.size() < count) {
                result += alphabet[byte % alphabet.size()];
            }
        }
    }
    return result;
}

std::string generate_project_token() {
    return std::string(project_token_prefix) + random_token_characters(project_random_length);
}

std::string generate_personal_token() {
    return std::string(personal_token_prefix) + random_token_characters(personal_random_length);
}

std::string generate_short_lived_token(std::size_t random_length) {
    return std::string(short_lived_token_prefix) + random_token_characters(random_length);
}

TokenKind detect_token_kind(std::string_view token) {
    if (token.starts_with(oauth_token_prefix)) {
        return TokenKind::oauth;
    }
    if (token.starts_with(personal_token_prefix) && token.size() == personal_token_length) {
        return TokenKind::personal;
    }
    return TokenKind::project;
}

std::string sha256_hex(std::string_view data) {
    Poco::SHA2Engine engine(Poco::SHA2Engine::SHA_256);
    engine.update(data.data(), static_cast<unsigned>(data.size()));
    return Poco::DigestEngine::digestToHex(engine.digest());
}

std::string token_prefix(std::string_view token) {
    return std::string(token.substr(0, visible_prefix_length));
}

}  // namespace loupe
