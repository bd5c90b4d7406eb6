#include "blob/local_blob_store.hpp"

#include <Poco/DigestEngine.h>
#include <Poco/SHA2Engine.h>
#include <Poco/URI.h>
#include <fcntl.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "loupe/json.hpp"

namespace loupe {
namespace fs = std::filesystem;

BlobStore::~BlobStore() = default;

bool is_blob_key(std::string_view key) {
    if (key.size() != 64) {
        return false;
    }
    for (char c : key) {
        if (!std::isxdigit(static_cast<unsigned char>(c))) {
            return false;
        }
    }
    return true;
}

std::string normalize_blob_key(std::string_view key) {
    if (!is_blob_key(key)) {
        throw std::invalid_argument("not a SHA-256 key");
    }
    std::string lower(key);
    for (char& c : lower) {
        c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    }
    return lower;
}

namespace {

void fsync_path(const std::string& path, int flags) {
    int fd = ::open(path.c_str(), flags);
    if (fd >= 0) {
        ::fsync(fd);
        ::close(fd);
    }
}

std::string encode(const std::string& text) {
    std::string out;
    Poco::URI::encode(text, "!#$&'()*+,/:;=?@[]", out);
    return out;
}

}  // namespace

LocalBlobStore::LocalBlobStore(std::string root, UrlSigner signer,
                               std::function<std::string()> public_url)
    : root_(std::move(root)), signer_(std::move(signer)), public_url_(std::move(public_url)) {
    fs::create_directories(fs::path(root_) / "tmp");
}

std::string LocalBlobStore::path_for(const std::string& key) const {
    return (fs::path(root_) / key.substr(0, 2) / key.substr(2, 2) / key).string();
}

std::string LocalBlobStore::temporary_path() const {
    static std::atomic<uint64_t> counter{0};
    return (fs::path(root_) / "tmp" /
            (std::to_string(::getpid()) + "-" + std::to_string(counter++) + ".part"))
        .string();
}

void LocalBlobStore::publish(const std::string& temporary, const std::string& key) {
    const auto target = path_for(key);
    if (fs::exists(target)) {
        fs::remove(temporary);
        return;
    }
    fsync_path(temporary, O_RDONLY);
    fs::create_directories(fs::path(target).parent_path());
    fs::rename(temporary, target);
    fsync_path(fs::path(target).parent_path().string(), O_RDONLY | O_DIRECTORY);
}

bool LocalBlobStore::exists(const std::string& key) {
    return is_blob_key(key) && fs::exists(path_for(normalize_blob_key(key)));
}

std::optional<BlobInfo> LocalBlobStore::stat(const std::string& key) {
    if (!is_blob_key(key)) {
        return std::nullopt;
    }
    auto normalized = normalize_blob_key(key);
    std::error_code error;
    auto size = fs::file_size(path_for(normalized), error);
    if (error) {
        return std::nullopt;
    }
    return BlobInfo{normalized, static_cast<uint64_t>(size)};
}

std::string LocalBlobStore::put(std::span<const uint8_t> bytes) {
    Poco::SHA2Engine sha(Poco::SHA2Engine::SHA_256);
    sha.update(bytes.data(), static_cast<unsigned>(bytes.size()));
    const std::string key = Poco::DigestEngine::digestToHex(sha.digest());
    if (fs::exists(path_for(key))) {
        return key;
    }
    const auto temporary = temporary_path();
    {
        std::ofstream out(temporary, std::ios::binary);
        out.write(reinterpret_cast<const char*>(bytes.data()),
                  static_cast<std::streamsize>(bytes.size()));
        if (!out) {
            throw std::runtime_error("cannot write blob to " + temporary);
        }
    }
    publish(temporary, key);
    return key;
}

std::optional<std::string> LocalBlobStore::read(const std::string& key) {
    auto path = local_path(key);
    if (!path) {
        return std::nullopt;
    }
    std::ifstream in(*path, std::ios::binary);
    std::ostringstream content;
    content << in.rdbuf();
    return content.str();
}

std::optional<std::string> LocalBlobStore::local_path(const std::string& key) {
    if (!is_blob_key(key)) {
        return std::nullopt;
    }
    auto path = path_for(normalize_blob_key(key));
    if (!fs::exists(path)) {
        return std::nullopt;
    }
    return path;
}

std::string LocalBlobStore::signed_put_url(const std::string& key,
                                           const std::string& content_type, int64_t ttl_ms) {
    const auto normalized = normalize_blob_key(key);
    const int64_t expires = (now_ms() + ttl_ms) / 1000;
    return public_url_() + "/uploads/" + normalized + "?expires=" + std::to_string(expires) +
           "&contentType=" + encode(content_type) +
           "&signature=" + signer_.sign("PUT", normalized, content_type, expires);
}

std::pair<std::string, std::vector<std::pair<std::string, std::string>>>
LocalBlobStore::signed_post_form(const std::string& key, const std::string& content_type,
                                 int64_t ttl_ms) {
    const auto normalized = normalize_blob_key(key);
    const int64_t expires = (now_ms() + ttl_ms) / 1000;
    std::vector<std::pair<std::string, std::string>> fields = {
        {"key", normalized},
        {"Content-Type", content_type},
        {"expires", std::to_string(expires)},
        {"signature", signer_.sign("POST", normalized, content_type, expires)},
    };
    return {public_url_() + "/uploads", std::move(fields)};
}

std::string LocalBlobStore::signed_get_url(const std::string& key,
                                           const std::string& content_type, int64_t ttl_ms) {
    const auto normalized = normalize_blob_key(key);
    const int64_t expires = (now_ms() + ttl_ms) / 1000;
    return public_url_() + "/blobs/" + normalized + "?expires=" + std::to_string(expires) +
           "&contentType=" + encode(content_type) +
           "&signature=" + signer_.sign("GET", normalized, content_type, expires);
}

}  // namespace loupe
