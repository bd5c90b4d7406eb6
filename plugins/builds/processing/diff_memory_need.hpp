#pragma once
// What comparing two stored images will hold in memory, worked out from their headers before
// anything is decoded: the budget reserves it (diff_memory_budget.hpp) and each job worker
// bounds what its diff engine keeps between diffs with it.

#include <cstdint>
#include <span>

namespace loupe::builds {

/// A stored image as far as memory planning needs it: its first bytes (up to
/// imagediff::image_size_prefix_bytes) and its size.
struct StoredImage {
    std::span<const uint8_t> prefix;
    uint64_t file_bytes = 0;
};

/// Upper bounds, in bytes, split the way the diff engine's buffers are: those decoding each
/// side (the file read whole, the inflated scanlines, the RGBA pixels) and those of the canvas
/// (the masks of both passes and the encoded mask).
struct DiffMemoryNeed {
    uint64_t base = 0;
    uint64_t head = 0;
    uint64_t canvas = 0;

    /// What a comparison holds at its peak, allocator and library overhead included.
    uint64_t total() const;
};

/// The need of comparing `base` with `head`, or of decoding `head` alone when `base` is null.
/// A file whose header cannot be read, or that is over the decoder's pixel limit, counts by its
/// size only: the decoder refuses it before allocating anything for its pixels.
DiffMemoryNeed diff_memory_need(const StoredImage* base, const StoredImage& head);

}  // namespace loupe::builds
