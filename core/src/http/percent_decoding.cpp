#include "http/percent_decoding.hpp"

#include "loupe/crypto/encoding.hpp"

namespace loupe {

std::string percent_decode(std::string_view text, bool plus_is_space) {
    std::string decoded;
    decoded.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '%' && i + 2 < text.size()) {
            if (const auto byte = crypto::from_hex(text.substr(i + 1, 2))) {
                decoded += *byte;
                i += 2;
                continue;
            }
        }
        decoded.push_back(plus_is_space && c == '+' ? ' ' : c);
    }
    return decoded;
}

}  // namespace loupe
