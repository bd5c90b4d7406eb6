#include "cpu_features.hpp"

namespace loupe::imagediff {

const CpuFeatures& cpu_features() {
#if defined(__x86_64__) || defined(__i386__)
    static const CpuFeatures features{__builtin_cpu_supports("ssse3") != 0,
                                      __builtin_cpu_supports("avx2") != 0};
#else
    static const CpuFeatures features;
#endif
    return features;
}

}  // namespace loupe::imagediff
