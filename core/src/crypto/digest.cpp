#include "loupe/crypto/digest.hpp"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>

#include <stdexcept>

#include "loupe/crypto/encoding.hpp"

namespace loupe::crypto {
namespace {

[[noreturn]] void fail(const char* what) {
    throw std::runtime_error(std::string("OpenSSL: ") + what + " failed");
}

const unsigned char* bytes_of(std::string_view data) {
    return reinterpret_cast<const unsigned char*>(data.data());
}

}  // namespace

std::string sha256(std::string_view data) {
    std::string digest(sha256_size, '\0');
    unsigned int size = 0;
    if (EVP_Digest(data.data(), data.size(), reinterpret_cast<unsigned char*>(digest.data()), &size,
                   EVP_sha256(), nullptr) != 1 ||
        size != sha256_size) {
        fail("SHA-256");
    }
    return digest;
}

std::string sha256_hex(std::string_view data) {
    return to_hex(sha256(data));
}

void Sha256::Free::operator()(evp_md_ctx_st* context) const {
    EVP_MD_CTX_free(context);
}

Sha256::Sha256() : context_(EVP_MD_CTX_new()) {
    if (!context_ || EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
        fail("SHA-256 init");
    }
}

Sha256::~Sha256() = default;
Sha256::Sha256(Sha256&&) noexcept = default;
Sha256& Sha256::operator=(Sha256&&) noexcept = default;

void Sha256::update(const void* data, std::size_t size) {
    if (EVP_DigestUpdate(context_.get(), data, size) != 1) {
        fail("SHA-256 update");
    }
}

void Sha256::update(std::string_view data) {
    update(data.data(), data.size());
}

std::string Sha256::finish() {
    std::string digest(sha256_size, '\0');
    unsigned int size = 0;
    if (EVP_DigestFinal_ex(context_.get(), reinterpret_cast<unsigned char*>(digest.data()),
                           &size) != 1 ||
        EVP_DigestInit_ex(context_.get(), EVP_sha256(), nullptr) != 1) {
        fail("SHA-256 final");
    }
    return digest;
}

std::string Sha256::finish_hex() {
    return to_hex(finish());
}

std::string hmac_sha256(std::string_view key, std::string_view data) {
    std::string mac(sha256_size, '\0');
    unsigned int size = 0;
    // An empty key is a valid HMAC key; OpenSSL wants a non-null pointer for it.
    static const unsigned char empty = 0;
    if (HMAC(EVP_sha256(), key.empty() ? &empty : bytes_of(key), static_cast<int>(key.size()),
             bytes_of(data), data.size(), reinterpret_cast<unsigned char*>(mac.data()),
             &size) == nullptr ||
        size != sha256_size) {
        fail("HMAC-SHA256");
    }
    return mac;
}

std::string hmac_sha256_hex(std::string_view key, std::string_view data) {
    return to_hex(hmac_sha256(key, data));
}

bool equal_in_constant_time(std::string_view a, std::string_view b) {
    return a.size() == b.size() && CRYPTO_memcmp(a.data(), b.data(), a.size()) == 0;
}

}  // namespace loupe::crypto
