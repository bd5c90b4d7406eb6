#include "unicode.hpp"

#include <unicode/uchar.h>
#include <unicode/utf16.h>
#include <unicode/utf8.h>

#include <cstdint>
#include <limits>

namespace loupe::reviews {

namespace {

const uint8_t* bytes(std::string_view text) {
    return reinterpret_cast<const uint8_t*>(text.data());
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
    if (text.size() > static_cast<size_t>(std::numeric_limits<int32_t>::max())) {
        return false;
    }
    const auto length = static_cast<int32_t>(text.size());
    int32_t i = 0;
    while (i < length) {
        UChar32 c = 0;
        U8_NEXT(bytes(text), i, length, c);
        if (c < 0) {
            return false;
        }
    }
    return true;
}

char32_t next_code_point(std::string_view text, size_t& pos) {
    auto i = static_cast<int32_t>(pos);
    UChar32 c = 0;
    U8_NEXT(bytes(text), i, static_cast<int32_t>(text.size()), c);
    pos = static_cast<size_t>(i);
    return c < 0 ? U'\uFFFD' : static_cast<char32_t>(c);
}

size_t utf16_length(std::string_view text) {
    size_t units = 0;
    for (size_t pos = 0; pos < text.size();) {
        units += U16_LENGTH(next_code_point(text, pos));
    }
    return units;
}

bool is_trimmed_whitespace(char32_t c) {
    switch (c) {
        case U'\t':
        case U'\n':
        case U'\v':
        case U'\f':
        case U'\r':
        case U'\uFEFF':
        case U'\u2028':
        case U'\u2029':
            return true;
        default:
            return u_charType(static_cast<UChar32>(c)) == U_SPACE_SEPARATOR;
    }
}

bool is_blank(std::string_view text) {
    for (size_t pos = 0; pos < text.size();) {
        if (!is_trimmed_whitespace(next_code_point(text, pos))) {
            return false;
        }
    }
    return true;
}

}  // namespace loupe::reviews
