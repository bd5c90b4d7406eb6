#pragma once
// The `diff.compute` job: scores one pair with the
// in-process diff engine, stores the mask, then — in one transaction with the build row
// locked — records the result, groups by fingerprint, bumps the flakiness counters, applies
// ignored changes and concludes the build when this was its last diff. Idempotent: a diff that
// is no longer pending is left alone, so a re-run after a crash counts nothing twice.

#include <cstdint>

#include "loupe/host.hpp"
#include "service/build_events.hpp"

namespace loupe::builds {

struct DiffEngineSettings {
    unsigned threads_per_diff = 1;  ///< row-band threads inside one comparison
};

void compute_diff(Host& host, const BuildEvents& events, const DiffEngineSettings& settings,
                  int64_t diff_id);

/// Gives up on a diff whose job failed for good: the diff reads `error`, so does its build.
void fail_diff_computation(Host& host, const BuildEvents& events, int64_t diff_id,
                           const std::string& error);

}  // namespace loupe::builds
