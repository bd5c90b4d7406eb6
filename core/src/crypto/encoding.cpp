#include "loupe/crypto/encoding.hpp"

#include <openssl/evp.h>

#include <algorithm>

namespace loupe::crypto {
namespace {

constexpr std::string_view hex_digits = "0123456789abcdef";

int hex_value(char c) {
    if (c >= '0' && c <= '9') {
        return c - '0';
    }
    if (c >= 'a' && c <= 'f') {
        return c - 'a' + 10;
    }
    if (c >= 'A' && c <= 'F') {
        return c - 'A' + 10;
    }
    return -1;
}

bool is_base64_character(char c) {
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' ||
           c == '/';
}

/// Decodes standard base64 after checking it strictly (OpenSSL's decoder skips whitespace and
/// counts padding as bytes).
std::optional<std::string> decode_standard(std::string text) {
    std::size_t data_length = text.size();
    while (data_length > 0 && text[data_length - 1] == '=') {
        --data_length;
    }
    const std::size_t padding = text.size() - data_length;
    if (padding > 2 || (padding > 0 && text.size() % 4 != 0) || data_length % 4 == 1 ||
        !std::all_of(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(data_length),
                     is_base64_character)) {
        return std::nullopt;
    }
    text.resize(data_length);
    const std::size_t missing = (4 - data_length % 4) % 4;
    text.append(missing, '=');
    std::string bytes(text.size() / 4 * 3, '\0');
    const int written = EVP_DecodeBlock(reinterpret_cast<unsigned char*>(bytes.data()),
                                        reinterpret_cast<const unsigned char*>(text.data()),
                                        static_cast<int>(text.size()));
    if (written < 0) {
        return std::nullopt;
    }
    bytes.resize(static_cast<std::size_t>(written) - missing);
    return bytes;
}

}  // namespace

std::string to_hex(std::string_view bytes) {
    std::string hex;
    hex.reserve(bytes.size() * 2);
    for (const char c : bytes) {
        const auto byte = static_cast<unsigned char>(c);
        hex += hex_digits[byte >> 4];
        hex += hex_digits[byte & 15];
    }
    return hex;
}

std::optional<std::string> from_hex(std::string_view hex) {
    if (hex.size() % 2 != 0) {
        return std::nullopt;
    }
    std::string bytes;
    bytes.reserve(hex.size() / 2);
    for (std::size_t i = 0; i < hex.size(); i += 2) {
        const int high = hex_value(hex[i]);
        const int low = hex_value(hex[i + 1]);
        if (high < 0 || low < 0) {
            return std::nullopt;
        }
        bytes += static_cast<char>(high * 16 + low);
    }
    return bytes;
}

std::string base64_encode(std::string_view bytes) {
    std::string text((bytes.size() + 2) / 3 * 4 + 1, '\0');
    const int written = EVP_EncodeBlock(reinterpret_cast<unsigned char*>(text.data()),
                                        reinterpret_cast<const unsigned char*>(bytes.data()),
                                        static_cast<int>(bytes.size()));
    text.resize(static_cast<std::size_t>(written));
    return text;
}

std::optional<std::string> base64_decode(std::string_view text) {
    return decode_standard(std::string(text));
}

std::string base64url_encode(std::string_view bytes) {
    std::string text = base64_encode(bytes);
    while (!text.empty() && text.back() == '=') {
        text.pop_back();
    }
    for (char& c : text) {
        c = c == '+' ? '-' : c == '/' ? '_' : c;
    }
    return text;
}

std::optional<std::string> base64url_decode(std::string_view text) {
    std::string standard(text);
    for (char& c : standard) {
        if (c == '+' || c == '/') {
            return std::nullopt;
        }
        c = c == '-' ? '+' : c == '_' ? '/' : c;
    }
    return decode_standard(std::move(standard));
}

}  // namespace loupe::crypto
