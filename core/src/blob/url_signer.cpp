#include "blob/url_signer.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "loupe/crypto/digest.hpp"
#include "loupe/crypto/random.hpp"

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
    std::filesystem::create_directories(data_dir);
    const std::string secret = crypto::random_hex(32);
    const auto temporary = path.string() + ".tmp";
    int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    if (fd < 0 ||
        ::write(fd, secret.data(), secret.size()) != static_cast<ssize_t>(secret.size()) ||
        ::fsync(fd) != 0) {
        if (fd >= 0) {
            ::close(fd);
        }
        throw std::runtime_error("cannot write " + temporary);
    }
    ::close(fd);
    std::filesystem::rename(temporary, path);
    return secret;
}

}  // namespace loupe
