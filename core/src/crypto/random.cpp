#include "loupe/crypto/random.hpp"

#include <openssl/err.h>
#include <openssl/rand.h>

#include <stdexcept>

#include "loupe/crypto/encoding.hpp"

namespace loupe::crypto {

std::string random_bytes(std::size_t count) {
    std::string bytes(count, '\0');
    if (count > 0 &&
        RAND_bytes(reinterpret_cast<unsigned char*>(bytes.data()), static_cast<int>(count)) != 1) {
        throw std::runtime_error("the system random generator failed (OpenSSL error " +
                                 std::to_string(ERR_get_error()) + ")");
    }
    return bytes;
}

std::string random_hex(std::size_t bytes) {
    return to_hex(random_bytes(bytes));
}

std::string random_base64url(std::size_t bytes) {
    return base64url_encode(random_bytes(bytes));
}

std::string random_characters(std::size_t count, std::string_view alphabet) {
    if (alphabet.size() < 2 || alphabet.size() > 256) {
        throw std::invalid_argument("random_characters needs an alphabet of 2 to 256 characters");
    }
    // Bytes at or above the largest multiple of the alphabet's size are drawn again, so every
    // character is equally likely (a plain `byte % size` would favour the first ones).
    const unsigned bound = 256 - 256 % alphabet.size();
    std::string text;
    text.reserve(count);
    while (text.size() < count) {
        for (const char c : random_bytes(64)) {
            const auto byte = static_cast<unsigned char>(c);
            if (byte < bound && text.size() < count) {
                text += alphabet[byte % alphabet.size()];
            }
        }
    }
    return text;
}

}  // namespace loupe::crypto
