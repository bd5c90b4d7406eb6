#include "blob/local_blob_store.hpp"

#include <Poco/URI.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <system_error>

#include "auth/token_format.hpp"
#include "blob/temporary_upload.hpp"
#include "loupe/json.hpp"
#include "loupe/text/strings.hpp"

namespace loupe {
namespace fs = std::filesystem;

BlobStore::~BlobStore() = default;

std::vector<std::string> BlobStore::missing(const std::vector<std::string>& keys) {
    std::vector<std::string> absent;
    for (const auto& key : keys) {
        if (!exists(key)) {
            absent.push_back(key);
        }
    }
    return absent;
}

std::optional<std::string> BlobStore::read_prefix(const std::string& key, std::size_t max_bytes) {
    auto bytes = read(key);
    if (bytes && bytes->size() > max_bytes) {
        bytes->resize(max_bytes);
    }
    return bytes;
}

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
    return to_lower(key);
}

namespace {

/// A temporary untouched for this long is the leftover of a crash: a signed upload URL lives
/// 30 minutes, and an upload in progress keeps writing to its file.
constexpr auto stale_temporary_age = std::chrono::minutes(30);
constexpr auto sweep_interval = std::chrono::minutes(5);

void fsync_file(const std::string& path) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        throw std::system_error(errno, std::generic_category(), "cannot open " + path);
    }
    const int result = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (result != 0) {
        throw std::system_error(error, std::generic_category(), "cannot fsync " + path);
    }
}

/// Makes a rename in `directory` durable. Some filesystems cannot fsync a directory (EINVAL);
/// there the rename is as durable as they allow.
void fsync_directory(const std::string& directory) {
    const int fd = ::open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        throw std::system_error(errno, std::generic_category(), "cannot open " + directory);
    }
    const int result = ::fsync(fd);
    const int error = errno;
    ::close(fd);
    if (result != 0 && error != EINVAL) {
        throw std::system_error(error, std::generic_category(), "cannot fsync " + directory);
    }
}

void remove_stale_temporary_files(const fs::path& folder) {
    const auto cutoff = fs::file_time_type::clock::now() - stale_temporary_age;
    std::error_code error;
    for (const auto& entry : fs::directory_iterator(folder, error)) {
        std::error_code entry_error;
        if (entry.is_regular_file(entry_error) && entry.last_write_time(entry_error) < cutoff) {
            fs::remove(entry.path(), entry_error);
        }
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
    remove_stale_temporaries();
    root_fd_ = ::open(root_.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (root_fd_ < 0) {
        throw std::system_error(errno, std::generic_category(), "cannot open " + root_);
    }
}

LocalBlobStore::~LocalBlobStore() {
    ::close(root_fd_);
}

namespace {

/// <k[0:2]>/<k[2:4]>/<key>, relative to the store root.
std::string relative_blob_path(const std::string& key) {
    std::string path;
    path.reserve(key.size() + 6);
    path.append(key, 0, 2).append("/").append(key, 2, 2).append("/");
    return path.append(key);
}

}  // namespace

std::string LocalBlobStore::path_for(const std::string& key) const {
    return root_ + "/" + relative_blob_path(key);
}

std::string LocalBlobStore::temporary_path() {
    const auto now = std::chrono::steady_clock::now().time_since_epoch().count();
    auto due = next_sweep_.load();
    if (now >= due && next_sweep_.compare_exchange_strong(
                          due, now + std::chrono::steady_clock::duration(sweep_interval).count())) {
        remove_stale_temporaries();
    }
    return (fs::path(root_) / "tmp" / (random_token_characters(26) + ".part")).string();
}

void LocalBlobStore::remove_stale_temporaries() {
    remove_stale_temporary_files(fs::path(root_) / "tmp");
}

void LocalBlobStore::publish(const std::string& temporary, const std::string& key) {
    const auto target = path_for(key);
    // Already stored: only its modification time changes, to now. Whoever wrote the bytes
    // again is about to reference them, and the blob sweep keeps blobs modified after its
    // cutoff. (Fails when the blob is absent, which is then written below.)
    if (::utimensat(root_fd_, relative_blob_path(key).c_str(), nullptr, 0) == 0) {
        fs::remove(temporary);
        return;
    }
    fsync_file(temporary);
    const fs::path folder = fs::path(target).parent_path();
    if (!fs::exists(folder)) {
        fs::create_directories(folder);
        // The new folders' own entries must survive a crash too, or the blob goes with them.
        fsync_directory(folder.parent_path().string());
        fsync_directory(folder.parent_path().parent_path().string());
    }
    fs::rename(temporary, target);
    fsync_directory(folder.string());
}

bool LocalBlobStore::exists(const std::string& key) {
    if (!is_blob_key(key)) {
        return false;
    }
    // Relative to the open root: the kernel walks three path components, not the whole path.
    struct ::stat info {};
    return ::fstatat(root_fd_, relative_blob_path(normalize_blob_key(key)).c_str(), &info, 0) == 0;
}

std::optional<BlobInfo> LocalBlobStore::stat(const std::string& key) {
    if (!is_blob_key(key)) {
        return std::nullopt;
    }
    auto normalized = normalize_blob_key(key);
    struct stat status {};
    if (::fstatat(root_fd_, relative_blob_path(normalized).c_str(), &status, 0) != 0 ||
        !S_ISREG(status.st_mode)) {
        return std::nullopt;
    }
    const int64_t written_at_ms = static_cast<int64_t>(status.st_mtim.tv_sec) * 1000 +
                                  static_cast<int64_t>(status.st_mtim.tv_nsec) / 1'000'000;
    return BlobInfo{normalized, static_cast<uint64_t>(status.st_size), written_at_ms};
}

bool LocalBlobStore::remove(const std::string& key) {
    if (!is_blob_key(key)) {
        return false;
    }
    return ::unlinkat(root_fd_, relative_blob_path(normalize_blob_key(key)).c_str(), 0) == 0;
}

std::string LocalBlobStore::put(std::span<const uint8_t> bytes) {
    TemporaryUpload upload(*this);
    upload.write(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    const std::string key = upload.finish();
    upload.publish(key);
    return key;
}

std::optional<std::string> LocalBlobStore::read(const std::string& key) {
    auto path = local_path(key);
    if (!path) {
        return std::nullopt;
    }
    std::ifstream in(*path, std::ios::binary);
    std::string content(static_cast<std::size_t>(fs::file_size(*path)), '\0');
    in.read(content.data(), static_cast<std::streamsize>(content.size()));
    if (!in) {
        throw std::runtime_error("cannot read blob " + *path);
    }
    return content;
}

std::optional<std::string> LocalBlobStore::read_prefix(const std::string& key,
                                                       std::size_t max_bytes) {
    if (!is_blob_key(key)) {
        return std::nullopt;
    }
    const auto path = path_for(normalize_blob_key(key));
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) {
            return std::nullopt;
        }
        throw std::system_error(errno, std::generic_category(), "cannot open " + path);
    }
    std::string content(max_bytes, '\0');
    std::size_t filled = 0;
    int error = 0;
    while (filled < max_bytes) {
        const ssize_t got =
            ::pread(fd, content.data() + filled, max_bytes - filled, static_cast<off_t>(filled));
        if (got > 0) {
            filled += static_cast<std::size_t>(got);
        } else if (got < 0 && errno == EINTR) {
            continue;
        } else {
            error = got < 0 ? errno : 0;
            break;
        }
    }
    ::close(fd);
    if (error != 0) {
        throw std::system_error(error, std::generic_category(), "cannot read " + path);
    }
    content.resize(filled);
    return content;
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

std::string LocalBlobStore::signed_put_url(const std::string& key, const std::string& content_type,
                                           int64_t ttl_ms) {
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

std::string LocalBlobStore::signed_get_url(const std::string& key, const std::string& content_type,
                                           int64_t ttl_ms) {
    const auto normalized = normalize_blob_key(key);
    const int64_t expires = (now_ms() + ttl_ms) / 1000;
    return public_url_() + "/blobs/" + normalized + "?expires=" + std::to_string(expires) +
           "&contentType=" + encode(content_type) +
           "&signature=" + signer_.sign("GET", normalized, content_type, expires);
}

}  // namespace loupe
