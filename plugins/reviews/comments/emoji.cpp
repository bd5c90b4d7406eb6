#include "emoji.hpp"

#include <unicode/uchar.h>
#include <unicode/ustring.h>

#include <string>

#include "unicode.hpp"

namespace loupe::reviews {

namespace {

// The longest RGI emoji (a family or kiss ZWJ sequence with skin tones) is 35 bytes; anything
// much longer is not one emoji and is refused before converting it.
constexpr size_t kMaxEmojiBytes = 64;
constexpr UChar kVariationSelector16 = 0xFE0F;

bool is_rgi_emoji(const std::u16string& text) {
    return !text.empty() && u_stringHasBinaryProperty(
                                text.data(), static_cast<int32_t>(text.size()), UCHAR_RGI_EMOJI);
}

}  // namespace

bool is_single_emoji(std::string_view text) {
    if (text.empty() || text.size() > kMaxEmojiBytes || !is_valid_utf8(text)) {
        return false;
    }
    std::u16string utf16(text.size(), u'\0');
    int32_t length = 0;
    UErrorCode status = U_ZERO_ERROR;
    u_strFromUTF8(utf16.data(), static_cast<int32_t>(utf16.size()), &length, text.data(),
                  static_cast<int32_t>(text.size()), &status);
    if (U_FAILURE(status)) {
        return false;
    }
    utf16.resize(static_cast<size_t>(length));
    if (is_rgi_emoji(utf16)) {
        return true;
    }
    std::u16string without_selectors;
    for (const char16_t unit : utf16) {
        if (unit != kVariationSelector16) {
            without_selectors.push_back(unit);
        }
    }
    return without_selectors.size() != utf16.size() && is_rgi_emoji(without_selectors);
}

}  // namespace loupe::reviews
