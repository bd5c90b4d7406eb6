#pragma once
// compare() with caller-owned scratch buffers, kept by Differ across calls.

#include <loupe/imagediff/imagediff.hpp>
#include <vector>

namespace loupe::imagediff {

struct CompareScratch {
    std::vector<uint8_t> base_pass_bits;   ///< 1-bit scanlines of pass A's mask
    std::vector<uint8_t> color_pass_bits;  ///< 1-bit scanlines of pass B's mask
};

DiffResult compare(const Image& base, const Image& head, const CompareOptions& options,
                   CompareScratch& scratch);

}  // namespace loupe::imagediff
