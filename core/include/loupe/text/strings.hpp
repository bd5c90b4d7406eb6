#pragma once
// String helpers every plugin needs: trimming, splitting, ASCII case. Case is ASCII only (never
// the process locale), as protocols want it: header names, media types, hex digests, slugs.

#include <string>
#include <string_view>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

/// What `std::isspace` accepts in the C locale.
inline constexpr std::string_view ascii_whitespace = " \t\n\v\f\r";
/// HTTP's optional whitespace around header values and list items (RFC 9110 §5.6.3).
inline constexpr std::string_view http_whitespace = " \t";

/// `text` without the leading and trailing characters found in `characters`.
LOUPE_API std::string_view trim(std::string_view text,
                                std::string_view characters = ascii_whitespace);
LOUPE_API std::string_view trim_start(std::string_view text,
                                      std::string_view characters = ascii_whitespace);
LOUPE_API std::string_view trim_end(std::string_view text,
                                    std::string_view characters = ascii_whitespace);

/// The parts between the separators, empty parts included: "a,,b" gives {"a", "", "b"} and ""
/// gives {""}. The views point into `text`.
LOUPE_API std::vector<std::string_view> split(std::string_view text, char separator);
/// Like split, each part trimmed of `characters` and the empty ones dropped:
/// " a , ,b " gives {"a", "b"}.
LOUPE_API std::vector<std::string_view> split_trimmed(
    std::string_view text, char separator, std::string_view characters = ascii_whitespace);
/// The parts joined with `separator` between them.
LOUPE_API std::string join(const std::vector<std::string>& parts, std::string_view separator);

LOUPE_API char to_lower(char c);
LOUPE_API std::string to_lower(std::string_view text);
LOUPE_API std::string to_upper(std::string_view text);
/// Equal but for the case of ASCII letters.
LOUPE_API bool equals_ignoring_case(std::string_view a, std::string_view b);
LOUPE_API bool starts_with_ignoring_case(std::string_view text, std::string_view prefix);

}  // namespace loupe
