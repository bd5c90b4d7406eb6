#pragma once
// Content-addressed blobs: the key is the lower-case hex SHA-256 of the bytes. The store never
// trusts a client's hash: writes hash what they receive and refuse a mismatch.
// OWNERSHIP: owned by the core. THREADS: thread-safe.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

/// True for 64 hex characters (any case); keys are stored lower-case.
LOUPE_API bool is_blob_key(std::string_view key);

struct BlobInfo {
    std::string key;
    uint64_t size = 0;
    /// When its bytes were last written, epoch milliseconds: writing a stored blob again (an
    /// upload of the same bytes) moves it to then. 0 when the store cannot tell.
    int64_t written_at_ms = 0;
};

class LOUPE_API BlobStore {
public:
    virtual ~BlobStore();

    virtual bool exists(const std::string& key) = 0;
    /// The keys among `keys` that exists() would deny, in their order. Stores whose lookups
    /// are remote (a bucket) override it to check many keys at once.
    virtual std::vector<std::string> missing(const std::vector<std::string>& keys);
    virtual std::optional<BlobInfo> stat(const std::string& key) = 0;
    /// Stores bytes under their own SHA-256; returns the key. Idempotent.
    virtual std::string put(std::span<const uint8_t> bytes) = 0;
    /// Reads a whole blob; nullopt when absent.
    virtual std::optional<std::string> read(const std::string& key) = 0;
    /// The first `max_bytes` of a blob (all of it when shorter); nullopt when absent. Stores
    /// that can read a range should override the default, which reads the whole blob.
    virtual std::optional<std::string> read_prefix(const std::string& key, std::size_t max_bytes);
    /// A local file holding the blob, when the store has one (the local store does).
    virtual std::optional<std::string> local_path(const std::string& key) = 0;
    /// Deletes a blob; true when it existed. Callers decide what is unreferenced (retention).
    virtual bool remove(const std::string& key) = 0;

    /// A URL that accepts `PUT` of the raw bytes for `key` until now + ttl (legacy form).
    virtual std::string signed_put_url(const std::string& key, const std::string& content_type,
                                       int64_t ttl_ms) = 0;
    /// The form-POST variant: URL plus the fields to send before the file (secure form).
    virtual std::pair<std::string, std::vector<std::pair<std::string, std::string>>>
    signed_post_form(const std::string& key, const std::string& content_type, int64_t ttl_ms) = 0;
    /// A time-limited URL serving the blob with `content_type`.
    virtual std::string signed_get_url(const std::string& key, const std::string& content_type,
                                       int64_t ttl_ms) = 0;
};

}  // namespace loupe
