// Reaction emoji: exactly one RGI emoji, with a superfluous U+FE0F tolerated.
#include "comments/emoji.hpp"

#include <doctest/doctest.h>

#include <string>

namespace loupe::reviews {
namespace {

TEST_CASE("emoji: one RGI emoji of each kind is accepted") {
    CHECK(is_single_emoji("👍"));
    CHECK(is_single_emoji("👍🏽"));                   // skin tone
    CHECK(is_single_emoji("👨‍👩‍👧‍👦"));  // ZWJ family
    CHECK(is_single_emoji("🇫🇷"));                         // flag
    CHECK(is_single_emoji("1\xEF\xB8\x8F\xE2\x83\xA3"));  // keycap 1️⃣
    CHECK(
        is_single_emoji("\xF0\x9F\x8F\xB4\xF3\xA0\x81\xA7\xF3\xA0\x81\xA2\xF3\xA0\x81\xA5"
                        "\xF3\xA0\x81\xAE\xF3\xA0\x81\xA7\xF3\xA0\x81\xBF"));  // England flag
    CHECK(is_single_emoji("❤️"));                                          // U+2764 U+FE0F
}

TEST_CASE("emoji: a U+FE0F the RGI form lacks is tolerated, a missing one is not") {
    CHECK(is_single_emoji("✅"));
    CHECK(is_single_emoji("✅\xEF\xB8\x8F"));
    CHECK(is_single_emoji("👍\xEF\xB8\x8F"));
    CHECK(is_single_emoji("👨‍👩‍👧‍👦\xEF\xB8\x8F"));
    CHECK_FALSE(is_single_emoji("\xE2\x9D\xA4"));   // U+2764 alone is the text heart
    CHECK_FALSE(is_single_emoji("1\xE2\x83\xA3"));  // keycap without its U+FE0F
    CHECK_FALSE(is_single_emoji("\xEF\xB8\x8F"));   // the selector alone
}

TEST_CASE("emoji: two emoji, text, empty and invalid UTF-8 are refused") {
    CHECK_FALSE(is_single_emoji("👍👍"));
    CHECK_FALSE(is_single_emoji("👍 "));
    CHECK_FALSE(is_single_emoji("a👍"));
    CHECK_FALSE(is_single_emoji("ok"));
    CHECK_FALSE(is_single_emoji("1"));
    CHECK_FALSE(is_single_emoji(""));
    CHECK_FALSE(is_single_emoji("\xF0\x9F\x91"));              // truncated 👍
    CHECK_FALSE(is_single_emoji("\xED\xA0\xBD\xED\xB1\x8D"));  // 👍 as CESU-8 surrogates
    CHECK_FALSE(is_single_emoji(std::string("\xF0\x9F\x91\x8D\0", 5)));
    CHECK_FALSE(is_single_emoji(std::string(200, 'x')));
}

}  // namespace
}  // namespace loupe::reviews
