#pragma once
// Token formats: project tokens are exactly 40 characters,
// `argos_` + 34 of [a-z1-9]; personal access tokens `arp_` + 36; short-lived project tokens
// `argos_tmp_` + 40 (or + 30 for tokens a CI job puts in ARGOS_TOKEN). Only SHA-256 hashes are
// stored, with a visible prefix for `token revoke`.

#include <cstddef>
#include <string>
#include <string_view>

#include "loupe/export.hpp"

namespace loupe {

enum class TokenKind { oauth, personal, project };

inline constexpr std::string_view project_token_prefix = "argos_";
inline constexpr std::string_view personal_token_prefix = "arp_";
inline constexpr std::string_view short_lived_token_prefix = "argos_tmp_";
inline constexpr std::string_view oauth_token_prefix = "argos_oat_";
/// Length of the visible prefix stored next to each hash.
inline constexpr std::size_t visible_prefix_length = 12;

LOUPE_API std::string generate_project_token();
LOUPE_API std::string generate_personal_token();
/// Random characters after `argos_tmp_`: 40 as Argos issues them, or 30 for a token of exactly
/// the 40 characters the Argos CLI accepts in ARGOS_TOKEN.
inline constexpr std::size_t short_lived_random_length = 40;
inline constexpr std::size_t short_lived_cli_random_length = 30;
LOUPE_API std::string generate_short_lived_token(
    std::size_t random_length = short_lived_random_length);
/// `count` characters of [a-z1-9] from the operating system's CSPRNG, without modulo bias.
LOUPE_API std::string random_token_characters(std::size_t count);
/// Checked in this order: `argos_oat_` → oauth; `arp_` and length 40 → personal; else project.
LOUPE_API TokenKind detect_token_kind(std::string_view token);
/// The part shown in listings and accepted by `token revoke --prefix`: first 12 characters.
LOUPE_API std::string token_prefix(std::string_view token);

}  // namespace loupe
