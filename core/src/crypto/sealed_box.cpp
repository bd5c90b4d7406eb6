#include "loupe/crypto/sealed_box.hpp"

#include <openssl/evp.h>

#include <filesystem>
#include <fstream>
#include <memory>
#include <stdexcept>

#include "loupe/crypto/encoding.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/files/private_file.hpp"

namespace loupe::crypto {
namespace {

constexpr std::size_t nonce_bytes = 12;
constexpr std::size_t tag_bytes = 16;
constexpr std::string_view version_prefix = "v1.";

using CipherContext = std::unique_ptr<EVP_CIPHER_CTX, decltype(&EVP_CIPHER_CTX_free)>;

CipherContext new_context() {
    CipherContext context(EVP_CIPHER_CTX_new(), &EVP_CIPHER_CTX_free);
    if (!context) {
        throw std::runtime_error("sealed box: no cipher context");
    }
    return context;
}

const unsigned char* sealed_bytes(std::string_view text) {
    return reinterpret_cast<const unsigned char*>(text.data());
}

int sealed_length(std::string_view text) {
    return static_cast<int>(text.size());
}

void check_key(std::string_view key) {
    if (key.size() != sealed_key_bytes) {
        throw std::invalid_argument("sealed box: the key must be 32 bytes");
    }
}

}  // namespace

std::string seal(std::string_view key, std::string_view plaintext, std::string_view context) {
    check_key(key);
    const std::string nonce = random_bytes(nonce_bytes);
    auto cipher = new_context();
    std::string out(plaintext.size(), '\0');
    std::string tag(tag_bytes, '\0');
    int written = 0;
    int final_written = 0;
    auto* out_bytes = reinterpret_cast<unsigned char*>(out.data());
    if (EVP_EncryptInit_ex(cipher.get(), EVP_aes_256_gcm(), nullptr, sealed_bytes(key),
                           sealed_bytes(nonce)) != 1 ||
        (!context.empty() &&
         EVP_EncryptUpdate(cipher.get(), nullptr, &written, sealed_bytes(context),
                           sealed_length(context)) != 1) ||
        EVP_EncryptUpdate(cipher.get(), out_bytes, &written, sealed_bytes(plaintext),
                          sealed_length(plaintext)) != 1 ||
        EVP_EncryptFinal_ex(cipher.get(), out_bytes + written, &final_written) != 1 ||
        EVP_CIPHER_CTX_ctrl(cipher.get(), EVP_CTRL_GCM_GET_TAG, static_cast<int>(tag_bytes),
                            tag.data()) != 1) {
        throw std::runtime_error("sealed box: encryption failed");
    }
    return std::string(version_prefix) + base64url_encode(nonce + out + tag);
}

std::optional<std::string> open_sealed(std::string_view key, std::string_view sealed,
                                       std::string_view context) {
    check_key(key);
    if (!sealed.starts_with(version_prefix)) {
        return std::nullopt;
    }
    const auto raw = base64url_decode(sealed.substr(version_prefix.size()));
    if (!raw || raw->size() < nonce_bytes + tag_bytes) {
        return std::nullopt;
    }
    const std::string_view all(*raw);
    const auto nonce = all.substr(0, nonce_bytes);
    const auto ciphertext = all.substr(nonce_bytes, all.size() - nonce_bytes - tag_bytes);
    std::string tag(all.substr(all.size() - tag_bytes));
    auto cipher = new_context();
    std::string out(ciphertext.size(), '\0');
    int written = 0;
    int final_written = 0;
    auto* out_bytes = reinterpret_cast<unsigned char*>(out.data());
    if (EVP_DecryptInit_ex(cipher.get(), EVP_aes_256_gcm(), nullptr, sealed_bytes(key),
                           sealed_bytes(nonce)) != 1 ||
        (!context.empty() &&
         EVP_DecryptUpdate(cipher.get(), nullptr, &written, sealed_bytes(context),
                           sealed_length(context)) != 1) ||
        EVP_DecryptUpdate(cipher.get(), out_bytes, &written, sealed_bytes(ciphertext),
                          sealed_length(ciphertext)) != 1 ||
        EVP_CIPHER_CTX_ctrl(cipher.get(), EVP_CTRL_GCM_SET_TAG, static_cast<int>(tag_bytes),
                            tag.data()) != 1 ||
        EVP_DecryptFinal_ex(cipher.get(), out_bytes + written, &final_written) != 1) {
        return std::nullopt;  // another key or context, or altered
    }
    return out;
}

std::string load_or_create_key_file(const std::string& path) {
    if (std::filesystem::exists(path)) {
        std::ifstream in(path);
        std::string hex;
        std::getline(in, hex);
        const auto key = from_hex(hex);
        if (!key || key->size() != sealed_key_bytes) {
            throw std::runtime_error(path + " holds no valid key (expected 64 hex digits)");
        }
        return *key;
    }
    // Created private, whole or not at all; when another instance sharing the folder created
    // it first, its key is the one every instance uses.
    files::create_private_file(path, to_hex(random_bytes(sealed_key_bytes)) + "\n");
    return load_or_create_key_file(path);
}

}  // namespace loupe::crypto
