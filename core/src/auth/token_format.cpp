#include "auth/token_format.hpp"

#include "loupe/crypto/random.hpp"

namespace loupe {
namespace {

constexpr std::string_view alphabet = "abcdefghijklmnopqrstuvwxyz123456789";

constexpr std::size_t project_random_length = 34;
constexpr std::size_t personal_random_length = 36;
constexpr std::size_t personal_token_length = 40;

}  // namespace

std::string random_token_characters(std::size_t count) {
    return crypto::random_characters(count, alphabet);
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

std::string token_prefix(std::string_view token) {
    return std::string(token.substr(0, visible_prefix_length));
}

}  // namespace loupe
