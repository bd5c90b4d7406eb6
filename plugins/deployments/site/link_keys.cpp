#include "site/link_keys.hpp"

#include <algorithm>
#include <stdexcept>

#include "loupe/crypto/digest.hpp"

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
    const std::string digest =
        crypto::hmac_sha256(secret_, "loupe-site-link\n" + std::to_string(link_id));
    // 32 base32 digits: the first 160 bits of the MAC, 5 bits at a time.
    std::string key;
    key.reserve(link_key_length);
    for (std::size_t i = 0; i < link_key_length; ++i) {
        const std::size_t bit = i * 5;
        const unsigned pair =
            (static_cast<unsigned>(static_cast<unsigned char>(digest[bit / 8])) << 8) |
            static_cast<unsigned char>(digest[bit / 8 + 1]);
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
    return crypto::sha256_hex(key);
}

}  // namespace loupe::deployments
