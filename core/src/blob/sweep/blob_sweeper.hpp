#pragma once
// The core's BlobSweep (see loupe/blob/blob_sweep.hpp for the rules): lists the store through
// its BlobInventory, asks every loaded plugin's finders which candidates rows reference,
// quarantines the others, waits the grace, checks again, then deletes or restores.

#include <cstddef>
#include <cstdint>
#include <functional>
#include <set>
#include <string>
#include <vector>

#include "blob/sweep/blob_inventory.hpp"
#include "loupe/blob/blob_sweep.hpp"
#include "loupe/config/config_view.hpp"
#include "loupe/db/database.hpp"
#include "loupe/export.hpp"
#include "loupe/log/logger.hpp"

namespace loupe {

struct BlobSweepSettings {
    int64_t min_age_ms = 86'400'000;  ///< blobs.sweep.min_age_ms
    int64_t grace_ms = 60'000;        ///< blobs.sweep.grace_ms
    std::size_t batch = 500;          ///< keys per reference query

    /// Reads blobs.sweep.*; throws std::runtime_error for a negative value.
    static BlobSweepSettings from_config(const ConfigView& config);
};

/// The subset of `keys` that rows of loaded plugins reference.
using ReferencedBlobs =
    std::function<std::set<std::string>(soci::session&, const std::vector<std::string>& keys)>;
/// The plugins not loaded here whose rows may reference blobs (see blob_holders.hpp).
using UnseenHolders = std::function<std::vector<std::string>(soci::session&)>;

class LOUPE_API BlobSweeper final : public BlobSweep {
public:
    BlobSweeper(Database& database, BlobInventory& inventory, ReferencedBlobs referenced,
                UnseenHolders unseen, BlobSweepSettings settings, Logger& log);

    BlobSweepReport sweep(const BlobSweepOptions& options) override;

    /// Tests: the clock (epoch ms), the wait, and a hook between quarantine and second check.
    std::function<int64_t()> clock;
    std::function<void(int64_t ms)> wait;
    std::function<void()> after_quarantine;

private:
    struct Pass {
        BlobSweepReport& report;
        bool dry_run = false;
        std::set<std::string> assume_unreferenced;  ///< dry runs only
        int64_t quarantined = 0;
    };
    void mark(Pass& pass, int64_t cutoff_ms);
    void check_candidates(Pass& pass, std::vector<StoredBlob>& batch);
    /// Deletes (or restores) the quarantined entries that waited the grace by `now_ms`.
    void settle_quarantine(BlobSweepReport& report, int64_t now_ms);
    std::set<std::string> referenced_keys(const std::vector<std::string>& keys);

    Database& database_;
    BlobInventory& inventory_;
    ReferencedBlobs referenced_;
    UnseenHolders unseen_;
    BlobSweepSettings settings_;
    Logger& log_;
};

}  // namespace loupe
