#pragma once
// The Unicode facts the comment body rules depend on, computed the way the JavaScript of the
// reference implementation computes them (UTF-16 lengths, String.prototype.trim whitespace).

#include <cstddef>
#include <string_view>

namespace loupe::reviews {

/// Whether `text` is well-formed UTF-8: no truncated or overlong sequences, no surrogates, no
/// code point past U+10FFFF.
bool is_valid_utf8(std::string_view text);

/// Decodes the code point of valid UTF-8 `text` starting at byte `pos` and moves `pos` past it.
char32_t next_code_point(std::string_view text, size_t& pos);

/// Length of valid UTF-8 `text` in UTF-16 code units (what JavaScript's `length` counts: a code
/// point beyond the Basic Multilingual Plane counts twice).
size_t utf16_length(std::string_view text);

/// Whether JavaScript's `trim()` removes `c`: tab, vertical tab, form feed, U+FEFF, the line
/// terminators (LF, CR, U+2028, U+2029) and every space separator (Zs).
bool is_trimmed_whitespace(char32_t c);

/// Whether valid UTF-8 `text` is empty once `trim()`-whitespace is removed.
bool is_blank(std::string_view text);

}  // namespace loupe::reviews
