#include "site/link_keys.hpp"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>

#include <algorithm>
#include <stdexcept>

namespace loupe::deployments {
namespace {

constexpr std::string_view base32_digits = "abcdefghijklmnopqrstuvwxyz234567";

}  // namespace

LinkKeys::LinkKeys(std::string secret) : secret_(std::move(secret)) {
    if (secret_.empty()) {
        throw std::invalid_argument("site link keys need a secret");
    }
}

std::string LinkKeys::key_of(int64_t link_id) const {
    const std::string message = "loupe-site-link\n" + std::to_string(link_id);
    unsigned char digest[EVP_MAX_MD_SIZE];
    unsigned int length = 0;
    if (HMAC(EVP_sha256(), secret_.data(), static_cast<int>(secret_.size()),
             reinterpret_cast<const unsigned char*>(message.data()), message.size(), digest,
             &length) == nullptr) {
        throw std::runtime_error("HMAC-SHA256 failed");
    }
    // 32 base32 digits: the first 160 bits of the MAC, 5 bits at a time.
    std::string key;
    key.reserve(link_key_length);
    for (std::size_t i = 0; i < link_key_length; ++i) {
        const std::size_t bit = i * 5;
        const unsigned pair = (static_cast<unsigned>(digest[bit / 8]) << 8) | digest[bit / 8 + 1];
        key += base32_digits[(pair >> (11 - bit % 8)) & 31];
    }
    return key;
}

bool is_link_key(std::string_view label) {
    return label.size() == link_key_length && std::all_of(label.begin(), label.end(), [](char c) {
               return (c >= 'a' && c <= 'z') || (c >= '2' && c <= '7');
           });
}

std::string link_key_hash(std::string_view key) {
    unsigned char digest[SHA256_DIGEST_LENGTH];
    SHA256(reinterpret_cast<const unsigned char*>(key.data()), key.size(), digest);
    static constexpr std::string_view digits = "0123456789abcdef";
    std::string hex;
    for (unsigned char byte : digest) {
        hex += digits[byte >> 4];
        hex += digits[byte & 15];
    }
    return hex;
}

}  // namespace loupe::deployments
