#pragma once
// The `build.process` job: baseline, build type, diffs, one `diff.compute`
// job per pair to compute, and the conclusion when nothing needs computing. One transaction:
// a crash leaves the build exactly as before, and a re-run of a processed build does nothing.

#include <cstdint>

#include "loupe/host.hpp"
#include "service/build_events.hpp"

namespace loupe::builds {

inline constexpr const char* compute_diff_job_kind = "diff.compute";

void process_build(Host& host, const BuildEvents& events, int64_t build_id);

/// Gives up on a build whose processing failed for good: jobStatus `error`.
void fail_build_processing(Host& host, const BuildEvents& events, int64_t build_id);

}  // namespace loupe::builds
