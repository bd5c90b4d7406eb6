#pragma once
// The blob sweep: deletes the blobs that no row of any plugin references any more (mark and
// sweep over the database through BlobReferences), safely while uploads and builds go on. A
// service the core provides; retention (the builds plugin's `loupe admin prune` and its daily
// job) runs it after deleting rows:
//   auto* sweep = host.services().find<loupe::BlobSweep>();
//
// The rules that make it safe:
//  - Only blobs last written before the sweep's start minus `blobs.sweep.min_age_ms` are
//    candidates: an upload is referenced by its build well within that time, and writing bytes
//    that are already stored counts as writing them again.
//  - A candidate no row references is not deleted at once: it is moved to a quarantine
//    (invisible, restorable), and only after `blobs.sweep.grace_ms` are its references checked
//    again. A write that checked the blob's existence before the quarantine and committed its
//    row after the first check is seen then, and the blob goes back. (The grace must exceed
//    the longest transaction that checks a blob and then records a reference to it.)
//  - Rows of a plugin that is not loaded are invisible, so the sweep refuses to run while a
//    plugin whose tables may hold blob keys (one that registered a finder when it was last
//    loaded, or was never loaded by a Loupe that records it) is not enabled in this process.
// OWNERSHIP: owned by the core for the process lifetime. THREADS: sweep() may be called from
// any thread; two sweeps (two instances) at once are safe.

#include <cstdint>
#include <string>
#include <vector>

namespace loupe {

struct BlobSweepOptions {
    bool dry_run = false;  ///< count what would go; move and delete nothing
    /// Dry run only: keys to count as unreferenced (the blobs that only rows the caller would
    /// delete reference), if the age rule lets them go.
    std::vector<std::string> assume_unreferenced;
};

struct BlobSweepReport {
    bool swept = false;                        ///< false when the sweep refused to run
    std::string refusal;                       ///< why it refused
    int64_t stored = 0;                        ///< blobs the store holds
    int64_t recent = 0;                        ///< kept: written after the cutoff
    int64_t referenced = 0;                    ///< kept: a row references them
    int64_t removed = 0;                       ///< deleted (a dry run: would be)
    int64_t removed_bytes = 0;                 ///< their total size
    int64_t restored = 0;                      ///< referenced again while quarantined: put back
    int64_t waiting = 0;                       ///< left in the quarantine for a later sweep
    int64_t stale_uploads = 0;                 ///< abandoned client uploads deleted (S3)
    std::vector<std::string> missing_plugins;  ///< the plugins whose absence refused the sweep
};

class BlobSweep {
public:
    static constexpr const char* service_name = "core.BlobSweep";
    static constexpr int service_version = 1;

    virtual ~BlobSweep() = default;
    /// Runs one sweep: may wait `blobs.sweep.grace_ms` when it quarantined blobs.
    virtual BlobSweepReport sweep(const BlobSweepOptions& options) = 0;
};

}  // namespace loupe
