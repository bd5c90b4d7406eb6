#pragma once
// A screenshot's thumbnail: decoded with the diff engine's decoder (the same one that reads
// every upload), scaled down by area averaging (every source pixel counts, so thin lines do not
// vanish), laid on white and encoded as JPEG with libjpeg-turbo.

#include <cstdint>
#include <span>
#include <vector>

#include "loupe/builds/screenshot_thumbnails.hpp"

namespace loupe::builds {

/// Throws loupe::imagediff::DecodeError for bytes that are no PNG/JPEG image.
std::vector<uint8_t> make_thumbnail(std::span<const uint8_t> image, const ThumbnailSize& size);

/// The ScreenshotThumbnails service: make_thumbnail, its decode errors as values.
class ScreenshotThumbnailsImpl final : public ScreenshotThumbnails {
public:
    Thumbnail render(std::span<const uint8_t> image, const ThumbnailSize& size) const override;
};

}  // namespace loupe::builds
