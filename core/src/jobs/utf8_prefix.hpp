#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace loupe {

/// The longest prefix of `text` of at most `max_bytes` that does not cut a UTF-8 sequence.
std::string utf8_prefix(std::string_view text, std::size_t max_bytes);

}  // namespace loupe
