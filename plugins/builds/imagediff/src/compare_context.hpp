#pragma once
// compare() with caller-owned scratch buffers, kept by Differ across calls.

#include <loupe/imagediff/imagediff.hpp>
#include <vector>

namespace loupe::imagediff {

struct CompareScratch {
    std::vector<uint8_t> base_pass_bits;   ///< 1-bit scanlines of pass A's mask
    std::vector<uint8_t> color_pass_bits;  ///< 1-bit scanlines of pass B's mask
    Image scaled_base;                     ///< both images scaled down, for canvases over the
    Image scaled_head;                     ///< limit (compare() on const images only)
};

DiffResult compare(const Image& base, const Image& head, const CompareOptions& options,
                   CompareScratch& scratch);

/// compare() that scales `base` and `head` down in place when the canvas is over the limit,
/// instead of into scratch copies: for decoded images the caller no longer needs.
DiffResult compare_in_place(Image& base, Image& head, const CompareOptions& options,
                            CompareScratch& scratch);

}  // namespace loupe::imagediff
