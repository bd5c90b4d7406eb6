#include "pixel_scan.hpp"

#include <doctest/doctest.h>

#include <cstring>
#include <vector>

namespace loupe::imagediff {
namespace {

// The baseline (SSE2) kernels always, and the AVX2 ones where the CPU has them.
std::vector<CpuFeatures> kernel_sets() {
    std::vector<CpuFeatures> sets = {CpuFeatures{}};
    if (cpu_features().avx2) {
        sets.push_back(cpu_features());
    }
    return sets;
}

TEST_CASE("pixel scan: finds the first differing pixel at every position and length") {
    for (const CpuFeatures& cpu : kernel_sets()) {
        CAPTURE(cpu.avx2);
        for (size_t count = 0; count <= 70; ++count) {
            std::vector<uint8_t> a(count * 4 + 4, 0x33);
            std::vector<uint8_t> b = a;
            CHECK(find_first_difference(a.data(), b.data(), count, cpu) == count);
            for (size_t at = 0; at < count; ++at) {
                for (const size_t byte : {size_t{0}, size_t{3}}) {
                    std::vector<uint8_t> c = a;
                    c[at * 4 + byte] ^= 0x80;
                    if (at + 1 < count) {
                        c[(count - 1) * 4] ^= 1;  // a later difference must not win
                    }
                    CAPTURE(count);
                    CAPTURE(at);
                    CHECK(find_first_difference(a.data(), c.data(), count, cpu) == at);
                }
            }
            // Past `count`, nothing is looked at.
            b[count * 4] ^= 1;
            CHECK(find_first_difference(a.data(), b.data(), count, cpu) == count);
        }
    }
}

TEST_CASE("pixel scan: finds the first pixel that is not transparent black") {
    for (const CpuFeatures& cpu : kernel_sets()) {
        CAPTURE(cpu.avx2);
        for (size_t count = 0; count <= 40; ++count) {
            std::vector<uint8_t> zero(count * 4 + 4, 0);
            CHECK(find_first_nonzero(zero.data(), count, cpu) == count);
            for (size_t at = 0; at < count; ++at) {
                std::vector<uint8_t> v = zero;
                v[at * 4 + 3] = 1;
                CHECK(find_first_nonzero(v.data(), count, cpu) == at);
            }
        }
    }
}

}  // namespace
}  // namespace loupe::imagediff
