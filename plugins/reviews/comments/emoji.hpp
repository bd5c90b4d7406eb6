#pragma once
// Reaction emoji: a reaction is exactly one emoji of Unicode's recommended-for-interchange set.

#include <string_view>

namespace loupe::reviews {

/// Whether `text` is valid UTF-8 holding exactly one RGI emoji: a single code point, a keycap,
/// a flag, a skin-tone or ZWJ sequence... and nothing else. A U+FE0F variation selector the RGI
/// form does not have (some pickers append one to every emoji) is tolerated.
bool is_single_emoji(std::string_view text);

}  // namespace loupe::reviews
