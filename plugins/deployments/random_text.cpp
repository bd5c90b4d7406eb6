#include "random_text.hpp"

#include <openssl/rand.h>

#include <stdexcept>
#include <string_view>

namespace loupe::deployments {
namespace {

void fill_random(std::string& buffer) {
    if (RAND_bytes(reinterpret_cast<unsigned char*>(buffer.data()),
                   static_cast<int>(buffer.size())) != 1) {
        throw std::runtime_error("OpenSSL RAND_bytes failed");
    }
}

}  // namespace

std::string random_hex(std::size_t bytes) {
    std::string raw(bytes, '\0');
    fill_random(raw);
    static constexpr std::string_view digits = "0123456789abcdef";
    std::string hex;
    hex.reserve(bytes * 2);
    for (unsigned char c : raw) {
        hex += digits[c >> 4];
        hex += digits[c & 15];
    }
    return hex;
}

std::string random_slug_chars(std::size_t length) {
    static constexpr std::string_view alphabet = "abcdefghijklmnopqrstuvwxyz123456789";
    // Bytes at or above the largest multiple of the alphabet's size are redrawn (no modulo bias).
    constexpr unsigned limit = 256 - 256 % alphabet.size();
    std::string text;
    std::string raw(length * 2, '\0');
    while (text.size() < length) {
        fill_random(raw);
        for (unsigned char c : raw) {
            if (c < limit && text.size() < length) {
                text += alphabet[c % alphabet.size()];
            }
        }
    }
    return text;
}

}  // namespace loupe::deployments
