#pragma once
// Blobs in an S3-compatible bucket. Verified blobs live at <prefix>blobs/<key> and only Loupe
// writes there. Clients upload through presigned URLs to <prefix>incoming/<key>; the bucket
// is asked to check the SHA-256 where the protocol allows it, but since neither a presigned
// PUT from the Argos CLI nor every S3 implementation enforces it, Loupe itself reads an
// incoming object, hashes it and only then moves it under blobs/ (exists() does this). A
// client can therefore never place bytes under a key they do not hash to, nor overwrite a
// verified blob. Downloads are presigned GETs, or Loupe's own signed /blobs URLs streamed
// through Loupe (blobs.s3.downloads=proxy).
// THREADS: thread-safe.

#include <atomic>
#include <functional>
#include <optional>
#include <string>

#include "blob/s3/s3_client.hpp"
#include "blob/url_signer.hpp"
#include "loupe/blob/blob_store.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

class LOUPE_API S3BlobStore final : public BlobStore {
public:
    /// `signer` and `public_url` make the proxied download URLs; `max_upload_bytes` bounds
    /// what a presigned upload may hold. OWNERSHIP: `log` must outlive the store.
    S3BlobStore(S3Settings settings, UrlSigner signer, std::function<std::string()> public_url,
                uint64_t max_upload_bytes, Logger& log);

    bool exists(const std::string& key) override;
    /// exists() for many keys, `blobs.s3.parallel_requests` at a time.
    std::vector<std::string> missing(const std::vector<std::string>& keys) override;
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

    /// Throws std::runtime_error with a clear message when the bucket cannot be reached, does
    /// not exist or refuses the credentials.
    void check_access();
    /// False when the bucket does not answer a HEAD with 200 (for /readyz).
    bool reachable();
    /// Stores bytes already known to hash to `key` (the migration, which verified them).
    void write_verified(const std::string& key, std::string_view bytes);

    const UrlSigner& signer() const { return signer_; }
    S3Client& client() { return client_; }
    /// Object names, for tests and the migration.
    std::string blob_name(const std::string& key) const;
    std::string incoming_name(const std::string& key) const;

private:
    /// Verifies and moves the upload waiting in incoming/ under blobs/; the time it was
    /// uploaded, or nullopt when there was none or it did not hash to its key (then removed).
    std::optional<int64_t> promote_incoming(const std::string& key);
    void write(const std::string& name, std::string_view bytes);
    void write_multipart(const std::string& name, std::string_view bytes);

    S3Client client_;
    UrlSigner signer_;
    std::function<std::string()> public_url_;
    uint64_t max_upload_bytes_;
    Logger& log_;
};

}  // namespace loupe
