#pragma once
// glibc malloc settings for a long-running server whose requests allocate megabytes each.

namespace loupe {

/// Caps malloc arenas at the core count and keeps freed request-sized memory (up to 32 MiB per
/// block) in the heap instead of returning it to the kernel after every request. Settings the
/// user gave through the environment (MALLOC_ARENA_MAX, MALLOC_MMAP_THRESHOLD_,
/// MALLOC_TRIM_THRESHOLD_) are left as they are. Call before any thread starts.
void tune_allocator_for_serving();

}  // namespace loupe
