// The local store's inventory: <root>/<k[0:2]>/<k[2:4]>/<key> files, and the quarantine
// folder <root>/quarantine on the same filesystem, so moving in and out is a rename.
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <filesystem>
#include <system_error>

#include "blob/local_blob_store.hpp"
#include "blob/sweep/blob_inventory.hpp"

namespace loupe {
namespace {

namespace fs = std::filesystem;

bool is_hex_pair(const std::string& name) {
    return name.size() == 2 && std::isxdigit(static_cast<unsigned char>(name[0])) &&
           std::isxdigit(static_cast<unsigned char>(name[1])) &&
           !std::isupper(static_cast<unsigned char>(name[0])) &&
           !std::isupper(static_cast<unsigned char>(name[1]));
}

int64_t modified_ms(const struct ::stat& info) {
    return static_cast<int64_t>(info.st_mtim.tv_sec) * 1000 + info.st_mtim.tv_nsec / 1'000'000;
}

class LocalBlobInventory final : public BlobInventory {
public:
    explicit LocalBlobInventory(LocalBlobStore& store)
        : store_(store), quarantine_(fs::path(store.root()) / "quarantine") {}

    void for_each_blob(const std::function<void(const StoredBlob&)>& visit) override {
        std::error_code error;
        for (const auto& first : fs::directory_iterator(store_.root(), error)) {
            if (!is_hex_pair(first.path().filename().string()) || !first.is_directory(error)) {
                continue;
            }
            for (const auto& second : fs::directory_iterator(first.path(), error)) {
                if (!is_hex_pair(second.path().filename().string()) ||
                    !second.is_directory(error)) {
                    continue;
                }
                visit_folder(second.path(),
                             first.path().filename().string() + second.path().filename().string(),
                             visit);
            }
        }
    }

    bool quarantine(const std::string& key, int64_t now_ms) override {
        fs::create_directories(quarantine_);
        const auto target = quarantine_ / quarantine_name(key, now_ms);
        if (::rename(store_.path_for(key).c_str(), target.c_str()) == 0) {
            return true;
        }
        if (errno == ENOENT) {
            return false;
        }
        throw std::system_error(errno, std::generic_category(), "cannot quarantine " + key);
    }

    std::vector<QuarantinedBlob> quarantined() override {
        std::vector<QuarantinedBlob> entries;
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(quarantine_, error)) {
            QuarantinedBlob blob;
            blob.name = entry.path().filename().string();
            struct ::stat info {};
            if (!parse_quarantine_name(blob.name, blob.key, blob.since_ms) ||
                ::stat(entry.path().c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
                continue;
            }
            blob.size = static_cast<uint64_t>(info.st_size);
            entries.push_back(std::move(blob));
        }
        return entries;
    }

    void restore(const QuarantinedBlob& entry) override {
        const auto source = quarantine_ / entry.name;
        const fs::path target = store_.path_for(entry.key);
        fs::create_directories(target.parent_path());
        // link() never replaces: a blob stored again meanwhile stays as it is.
        if (::link(source.c_str(), target.c_str()) != 0 && errno != EEXIST) {
            if (errno == ENOENT && !fs::exists(source)) {
                return;  // another sweep dealt with it
            }
            throw std::system_error(errno, std::generic_category(), "cannot restore " + entry.key);
        }
        ::unlink(source.c_str());
    }

    void purge(const QuarantinedBlob& entry) override {
        const auto path = quarantine_ / entry.name;
        if (::unlink(path.c_str()) != 0 && errno != ENOENT) {
            throw std::system_error(errno, std::generic_category(), "cannot delete " + entry.key);
        }
    }

private:
    void visit_folder(const fs::path& folder, const std::string& key_start,
                      const std::function<void(const StoredBlob&)>& visit) {
        std::error_code error;
        for (const auto& entry : fs::directory_iterator(folder, error)) {
            const auto name = entry.path().filename().string();
            if (!is_blob_key(name) || name.compare(0, 4, key_start) != 0 ||
                normalize_blob_key(name) != name) {
                continue;
            }
            struct ::stat info {};
            if (::lstat(entry.path().c_str(), &info) != 0 || !S_ISREG(info.st_mode)) {
                continue;  // removed meanwhile, or not a blob file
            }
            visit(StoredBlob{name, static_cast<uint64_t>(info.st_size), modified_ms(info)});
        }
    }

    LocalBlobStore& store_;
    fs::path quarantine_;
};

}  // namespace

BlobInventory::~BlobInventory() = default;

int64_t BlobInventory::remove_stale_uploads(int64_t, bool) {
    return 0;
}

std::string quarantine_name(const std::string& key, int64_t since_ms) {
    return key + "." + std::to_string(since_ms);
}

bool parse_quarantine_name(const std::string& name, std::string& key, int64_t& since_ms) {
    if (name.size() < 66 || name[64] != '.') {
        return false;
    }
    key = name.substr(0, 64);
    if (!is_blob_key(key) || normalize_blob_key(key) != key) {
        return false;
    }
    int64_t value = 0;
    for (std::size_t i = 65; i < name.size(); ++i) {
        if (name[i] < '0' || name[i] > '9' || value > (INT64_MAX - 9) / 10) {
            return false;
        }
        value = value * 10 + (name[i] - '0');
    }
    since_ms = value;
    return true;
}

std::unique_ptr<BlobInventory> local_blob_inventory(LocalBlobStore& store) {
    return std::make_unique<LocalBlobInventory>(store);
}

}  // namespace loupe
