#pragma once
// The x86 vector extensions the engine uses beyond baseline x86-64 (SSE2), detected once.
// Kernels take them as a parameter so that tests can run the baseline paths on any machine.

namespace loupe::imagediff {

struct CpuFeatures {
    bool ssse3 = false;
    bool avx2 = false;
};

/// What this CPU supports (all false on non-x86 builds).
const CpuFeatures& cpu_features();

}  // namespace loupe::imagediff
