#pragma once
// Heap settings for a process that diffs one pair and exits.

namespace loupe::builds {

/// A short-lived `loupe diff` process spends much of its time in first-touch page faults: tens
/// of megabytes of fresh memory, one 4 KiB fault each, which a virtual machine makes slower
/// still. This makes malloc serve everything below glibc's largest mmap threshold (32 MiB)
/// from one heap, grown once by 256 MiB (address space only) and advised for transparent huge
/// pages, so that the buffers the engine does not already advise (file contents, pass bitmaps, the
/// mask PNG) fault in 2 MiB at a time. Larger blocks stay mmap()ed, and the engine advises its
/// pixel buffers itself. Call before any other thread starts; only advice, so failures are ignored.
void prefer_huge_pages_for_one_diff();

}  // namespace loupe::builds
