#pragma once
// What the blob sweep needs of a store beyond BlobStore: every stored blob with its size and
// the time it was last written, and a quarantine where unreferenced blobs wait before they are
// deleted (invisible to exists() and downloads, but restorable). Quarantined entries are named
// <key>.<epoch ms when quarantined>, so any run, in any process, knows how long one has waited.
// THREADS: an inventory is used by one sweep at a time; concurrent sweeps (two instances) are
// safe because every operation tolerates the other having done it first.

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "loupe/export.hpp"

namespace loupe {

class LocalBlobStore;
class S3BlobStore;

struct StoredBlob {
    std::string key;
    uint64_t size = 0;
    int64_t written_ms = 0;  ///< last write (local: mtime; S3: LastModified)
};

struct QuarantinedBlob {
    std::string key;
    int64_t since_ms = 0;  ///< when it was quarantined
    uint64_t size = 0;
    std::string name;  ///< the entry's name in the quarantine
};

class LOUPE_API BlobInventory {
public:
    virtual ~BlobInventory();
    /// Calls `visit` with every stored blob (in no particular order); `visit` may quarantine.
    virtual void for_each_blob(const std::function<void(const StoredBlob&)>& visit) = 0;
    /// Moves a blob into the quarantine; false when it was gone already.
    virtual bool quarantine(const std::string& key, int64_t now_ms) = 0;
    /// Every quarantined entry.
    virtual std::vector<QuarantinedBlob> quarantined() = 0;
    /// Puts an entry back under its key (if the key was stored again meanwhile, the entry is
    /// simply dropped: the bytes are the same).
    virtual void restore(const QuarantinedBlob& entry) = 0;
    /// Deletes an entry for good.
    virtual void purge(const QuarantinedBlob& entry) = 0;
    /// Deletes abandoned client uploads last written before `cutoff_ms` (stores that stage
    /// uploads outside the blobs, as S3 does); returns how many. `dry_run` only counts.
    virtual int64_t remove_stale_uploads(int64_t cutoff_ms, bool dry_run);
};

/// "<key>.<ms>" → key and ms; false for any other name.
LOUPE_API bool parse_quarantine_name(const std::string& name, std::string& key, int64_t& since_ms);
LOUPE_API std::string quarantine_name(const std::string& key, int64_t since_ms);

LOUPE_API std::unique_ptr<BlobInventory> local_blob_inventory(LocalBlobStore& store);
LOUPE_API std::unique_ptr<BlobInventory> s3_blob_inventory(S3BlobStore& store);

}  // namespace loupe
