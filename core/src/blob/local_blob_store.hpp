#pragma once
// Blobs in a local folder, content-addressed: <root>/<k[0:2]>/<k[2:4]>/<key>. Writes go to a
// temporary file in <root>/tmp, are fsync'ed, then renamed into place, so a crash never
// leaves a partial file under a real key. Upload and download URLs point at Loupe's own
// /uploads and /blobs routes, signed with HMAC (UrlSigner).

#include <atomic>
#include <chrono>
#include <functional>
#include <string>

#include "blob/url_signer.hpp"
#include "loupe/blob/blob_store.hpp"

namespace loupe {

class LOUPE_API LocalBlobStore final : public BlobStore {
public:
    LocalBlobStore(std::string root, UrlSigner signer, std::function<std::string()> public_url);
    ~LocalBlobStore() override;
    LocalBlobStore(const LocalBlobStore&) = delete;
    LocalBlobStore& operator=(const LocalBlobStore&) = delete;

    bool exists(const std::string& key) override;
    std::optional<BlobInfo> stat(const std::string& key) override;
    std::string put(std::span<const uint8_t> bytes) override;
    std::optional<std::string> read(const std::string& key) override;
    std::optional<std::string> read_prefix(const std::string& key, std::size_t max_bytes) override;
    std::optional<std::string> local_path(const std::string& key) override;
    bool remove(const std::string& key) override;
    std::string signed_put_url(const std::string& key, const std::string& content_type,
                               int64_t ttl_ms) override;
    std::pair<std::string, std::vector<std::pair<std::string, std::string>>> signed_post_form(
        const std::string& key, const std::string& content_type, int64_t ttl_ms) override;
    std::string signed_get_url(const std::string& key, const std::string& content_type,
                               int64_t ttl_ms) override;

    /// Where a blob with this (validated, lower-case) key lives.
    std::string path_for(const std::string& key) const;
    /// A fresh temporary file path inside the store (same filesystem as the blobs), named at
    /// random so that no other process, past or present, uses it. Every few minutes, also
    /// removes the temporaries stale uploads left behind.
    std::string temporary_path();
    /// Removes temporaries untouched for longer than an upload URL lives (30 minutes): what
    /// a killed process was writing. Runs at start and then on the schedule above.
    void remove_stale_temporaries();
    /// fsyncs and renames a finished temporary file to the blob path of `key` (idempotent if
    /// the blob already exists: the temporary file is removed and the blob's modification time
    /// set to now, so the blob sweep counts it as freshly written).
    void publish(const std::string& temporary, const std::string& key);

    const UrlSigner& signer() const { return signer_; }
    /// The folder holding the blobs.
    const std::string& root() const { return root_; }

private:
    std::string root_;
    int root_fd_ = -1;  ///< the root folder, open for *at() lookups
    std::atomic<std::chrono::steady_clock::rep> next_sweep_{0};
    UrlSigner signer_;
    std::function<std::string()> public_url_;
};

/// Lower-cases a key accepted by is_blob_key; throws std::invalid_argument otherwise.
LOUPE_API std::string normalize_blob_key(std::string_view key);

}  // namespace loupe
