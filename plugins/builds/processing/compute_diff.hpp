#pragma once
// The `diff.compute` job: scores one pair with the
// in-process diff engine, stores the mask, then — in one transaction with the build row
// locked — records the result, groups by fingerprint, bumps the flakiness counters, applies
// ignored changes and concludes the build when this was its last diff. Idempotent: a diff that
// is no longer pending is left alone, so a re-run after a crash counts nothing twice.

#include <cstdint>
#include <memory>

#include "loupe/host.hpp"
#include "processing/diff_memory_budget.hpp"
#include "service/build_events.hpp"

namespace loupe::builds {

struct DiffEngineSettings {
    unsigned threads_per_diff = 1;  ///< row-band threads inside one comparison
    /// Shared by every worker of the process (plugins.builds.diff_memory_mb).
    std::shared_ptr<DiffMemoryBudget> memory;
    /// What a worker's diff engine keeps between diffs; a larger pair's buffers go back to the
    /// system once it is done.
    uint64_t retained_bytes_per_worker = uint64_t{64} << 20;
};

void compute_diff(Host& host, const BuildEvents& events, const DiffEngineSettings& settings,
                  int64_t diff_id);

/// Gives up on a diff whose job failed for good: the diff reads `error`, so does its build.
void fail_diff_computation(Host& host, const BuildEvents& events, int64_t diff_id,
                           const std::string& error);

}  // namespace loupe::builds
