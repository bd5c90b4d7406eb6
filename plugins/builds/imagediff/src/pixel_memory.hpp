#pragma once
// Memory for decoded images. A fresh process pays one page fault per 4 KiB page it first
// writes: about 8,000 for one 1280 x 6341 RGBA page. Blocks of several MiB are therefore
// advised onto transparent huge pages (2 MiB each), where the system allows it (the
// "madvise" or "always" setting of /sys/kernel/mm/transparent_hugepage/enabled).

#include <cstddef>
#include <cstdint>
#include <vector>

namespace loupe::imagediff {

/// Asks for transparent huge pages on the whole 2 MiB pages inside [data, data + bytes); a
/// no-op for small blocks and where the system does not support it.
void advise_huge_pages(void* data, size_t bytes);

/// Makes `pixels` exactly `bytes` long for a decoder that overwrites all of them, and returns
/// its data. When it must grow, the old contents are dropped instead of copied and the new
/// block is advised onto huge pages before anything touches it.
uint8_t* prepare_pixels(std::vector<uint8_t>& pixels, size_t bytes);

}  // namespace loupe::imagediff
