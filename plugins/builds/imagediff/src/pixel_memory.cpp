#include "pixel_memory.hpp"

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace loupe::imagediff {
namespace {

constexpr uintptr_t kHugePageBytes = uintptr_t{2} << 20;
// Below two huge pages the aligned interior is too small to matter.
constexpr size_t kMinAdvisedBytes = size_t{2} * kHugePageBytes;

}  // namespace

void advise_huge_pages(void* data, size_t bytes) {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
    if (bytes < kMinAdvisedBytes) {
        return;
    }
    const auto begin = reinterpret_cast<uintptr_t>(data);
    const uintptr_t first = (begin + kHugePageBytes - 1) & ~(kHugePageBytes - 1);
    const uintptr_t last = (begin + bytes) & ~(kHugePageBytes - 1);
    if (last > first) {
        // Advice only: on failure (no THP support) the block keeps ordinary pages.
        (void)::madvise(reinterpret_cast<void*>(first), last - first, MADV_HUGEPAGE);
    }
#else
    (void)data;
    (void)bytes;
#endif
}

uint8_t* prepare_pixels(std::vector<uint8_t>& pixels, size_t bytes) {
    if (pixels.capacity() < bytes) {
        pixels = {};
        pixels.reserve(bytes);
        advise_huge_pages(pixels.data(), bytes);
    }
    pixels.resize(bytes);
    return pixels.data();
}

}  // namespace loupe::imagediff
