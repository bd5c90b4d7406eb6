#pragma once
// Rules for the names `loupe admin` accepts, with messages an operator can act on.

#include <optional>
#include <string>
#include <string_view>

namespace loupe {

inline constexpr std::size_t max_slug_length = 48;
inline constexpr std::size_t max_display_name_length = 255;
inline constexpr std::size_t max_branch_length = 255;

/// Why `slug` is not a valid user or account slug (1..48 of [a-z0-9-]); nullopt when valid.
std::optional<std::string> slug_problem(std::string_view slug);
/// Why `name` is not a valid display name (1..255 characters, not blank); nullopt when valid.
std::optional<std::string> display_name_problem(std::string_view name);
/// Why `branch` is not a valid base branch name; nullopt when valid.
std::optional<std::string> branch_problem(std::string_view branch);

/// The case-insensitive key under which project names are unique within an account.
std::string name_key(std::string_view name);

}  // namespace loupe
