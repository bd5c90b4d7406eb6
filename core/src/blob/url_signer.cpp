#include "blob/url_signer.hpp"

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"
#include "loupe/files/private_file.hpp"

namespace loupe {

UrlSigner::UrlSigner(std::string secret) : secret_(std::move(secret)) {
    if (secret_.size() < 16) {
        throw std::invalid_argument("URL signing secret is too short");
    }
}

std::string UrlSigner::sign(const std::string& method, const std::string& key,
                            const std::string& content_type, int64_t expires_s) const {
    return crypto::hmac_sha256_hex(
        secret_, method + "\n" + key + "\n" + content_type + "\n" + std::to_string(expires_s));
}

bool UrlSigner::verify(const std::string& method, const std::string& key,
                       const std::string& content_type, int64_t expires_s,
                       const std::string& signature, int64_t now_s) const {
    if (now_s > expires_s) {
        return false;
    }
    return crypto::equal_in_constant_time(sign(method, key, content_type, expires_s), signature);
}

std::string UrlSigner::load_or_create_secret(const std::string& data_dir) {
    const auto path = std::filesystem::path(data_dir) / "secret.key";
    if (std::filesystem::exists(path)) {
        std::ifstream in(path);
        std::string secret;
        std::getline(in, secret);
        if (secret.size() >= 32) {
            return secret;
        }
        throw std::runtime_error(path.string() + " holds no valid secret (expected 64 hex digits)");
    }
    // Created private, whole or not at all; another instance sharing the folder may have
    // created it meanwhile, and then its secret is the one every instance uses.
    files::create_private_file(path.string(), crypto::random_hex(32));
    return load_or_create_secret(data_dir);
}

}  // namespace loupe
