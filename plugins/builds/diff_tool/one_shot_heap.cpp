#include "diff_tool/one_shot_heap.hpp"

#include <malloc.h>
#include <sys/mman.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>

namespace loupe::builds {
namespace {

constexpr std::uintptr_t kHugePage = std::uintptr_t{2} << 20;
constexpr int kLargestMmapThreshold = 32 << 20;  // glibc's maximum on 64-bit
constexpr int kHeapGrowth = 256 << 20;

}  // namespace

void prefer_huge_pages_for_one_diff() {
    // One arena: the second decoding thread shares the advised heap instead of its own.
    mallopt(M_ARENA_MAX, 1);
    mallopt(M_MMAP_THRESHOLD, kLargestMmapThreshold);
    mallopt(M_TOP_PAD, kHeapGrowth);
    mallopt(M_TRIM_THRESHOLD, 2 * kHeapGrowth);
    char* const before = static_cast<char*>(::sbrk(0));
    // More than the heap has free: malloc grows it by this plus the top pad, all virtual.
    // (volatile: the compiler may otherwise drop a malloc whose block is only freed.)
    void* volatile growth = std::malloc(std::size_t{1} << 20);
    char* const after = static_cast<char*>(::sbrk(0));
    // The whole huge pages inside [before, after).
    char* const first =
        before + (kHugePage - reinterpret_cast<std::uintptr_t>(before) % kHugePage) % kHugePage;
    char* const last = after - reinterpret_cast<std::uintptr_t>(after) % kHugePage;
    if (last > first) {
        (void)::madvise(first, static_cast<std::size_t>(last - first), MADV_HUGEPAGE);
    }
    std::free(growth);
}

}  // namespace loupe::builds
