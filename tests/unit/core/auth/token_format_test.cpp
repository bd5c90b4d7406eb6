#include "auth/token_format.hpp"

#include <doctest/doctest.h>

#include <array>
#include <set>

namespace loupe {
namespace {

bool in_alphabet(std::string_view text) {
    return text.find_first_not_of("abcdefghijklmnopqrstuvwxyz123456789") == std::string::npos;
}

TEST_CASE("project tokens are argos_ and 34 characters of [a-z1-9]: 40 in all") {
    const std::string token = generate_project_token();
    CHECK(token.size() == 40);
    CHECK(token.starts_with("argos_"));
    CHECK(in_alphabet(std::string_view(token).substr(6)));
    CHECK(detect_token_kind(token) == TokenKind::project);
}

TEST_CASE("personal access tokens are arp_ and 36 characters: 40 in all") {
    const std::string token = generate_personal_token();
    CHECK(token.size() == 40);
    CHECK(token.starts_with("arp_"));
    CHECK(in_alphabet(std::string_view(token).substr(4)));
    CHECK(detect_token_kind(token) == TokenKind::personal);
}

TEST_CASE("short-lived tokens are argos_tmp_ and 40 characters") {
    const std::string token = generate_short_lived_token();
    CHECK(token.size() == 50);
    CHECK(token.starts_with("argos_tmp_"));
    CHECK(in_alphabet(std::string_view(token).substr(10)));
    CHECK(detect_token_kind(token) == TokenKind::project);
}

TEST_CASE("generated tokens differ and use every character of the alphabet") {
    std::set<std::string> tokens;
    std::set<char> seen;
    for (int i = 0; i < 300; ++i) {
        const std::string token = generate_project_token();
        tokens.insert(token);
        seen.insert(token.begin() + 6, token.end());
    }
    CHECK(tokens.size() == 300);
    CHECK(seen.size() == 35);  // 26 letters and 1-9; never 0 or upper case
    CHECK(seen.count('0') == 0);
}

TEST_CASE("random characters come out evenly (no modulo bias)") {
    const std::string sample = random_token_characters(35 * 2000);
    std::array<int, 256> counts{};
    for (char c : sample) {
        ++counts[static_cast<unsigned char>(c)];
    }
    // Expected 2000 each; a `byte % 35` mapping would give the first 11 characters ~2230.
    for (char c : std::string_view("abcdefghijklmnopqrstuvwxyz123456789")) {
        CAPTURE(c);
        CHECK(counts[static_cast<unsigned char>(c)] > 1780);
        CHECK(counts[static_cast<unsigned char>(c)] < 2220);
    }
}

TEST_CASE("token kind detection: argos_oat_, then 40-character arp_, then project") {
    const std::string pat = "arp_" + std::string(36, 'a');
    CHECK(detect_token_kind(pat) == TokenKind::personal);
    CHECK(detect_token_kind("arp_" + std::string(35, 'a')) == TokenKind::project);
    CHECK(detect_token_kind("arp_" + std::string(37, 'a')) == TokenKind::project);
    CHECK(detect_token_kind("argos_oat_whatever") == TokenKind::oauth);
    CHECK(detect_token_kind("argos_oat_" + std::string(30, 'a')) == TokenKind::oauth);
    CHECK(detect_token_kind("argos_" + std::string(34, 'a')) == TokenKind::project);
    CHECK(detect_token_kind("tokenless-github-xyz") == TokenKind::project);
    CHECK(detect_token_kind("") == TokenKind::project);
}

TEST_CASE("token_prefix") {
    CHECK(token_prefix("argos_abcdefghijklmnop") == "argos_abcdef");
    CHECK(token_prefix("arp_12345678xyz") == "arp_12345678");
    CHECK(token_prefix("short") == "short");
}

}  // namespace
}  // namespace loupe
