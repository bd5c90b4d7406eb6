#pragma once
// A screenshot's thumbnail: decoded with the diff engine's decoder (the same one that reads
// every upload), scaled down by area averaging (every source pixel counts, so thin lines do not
// vanish), laid on white and encoded as JPEG with libjpeg-turbo.

#include <cstdint>
#include <span>
#include <vector>

namespace loupe::web {

struct ThumbnailSize {
    int width = 240;       ///< never enlarged past the source
    int max_height = 480;  ///< a taller page keeps its top
};

/// Throws loupe::imagediff::DecodeError for bytes that are no PNG/JPEG image.
std::vector<uint8_t> make_thumbnail(std::span<const uint8_t> image, const ThumbnailSize& size);

}  // namespace loupe::web
