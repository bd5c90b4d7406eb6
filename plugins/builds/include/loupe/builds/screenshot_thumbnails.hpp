#pragma once
// Thumbnails of screenshots, made by the builds plugin with the engine that decodes every
// upload (so the review page's plugin needs no image codec of its own). Look it up at install
// time: `host.services().require<loupe::builds::ScreenshotThumbnails>()`.
// OWNERSHIP: owned by the builds plugin for the process lifetime. THREADS: thread-safe.

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace loupe::builds {

struct ThumbnailSize {
    int width = 240;       ///< never enlarged past the source
    int max_height = 480;  ///< a taller page keeps its top
};

/// A JPEG thumbnail, or why there is none (the bytes are no PNG or JPEG image, or too large).
struct Thumbnail {
    std::vector<uint8_t> jpeg;
    std::string error;
    bool ok() const { return error.empty(); }
};

class ScreenshotThumbnails {
public:
    static constexpr const char* service_name = "builds.ScreenshotThumbnails";
    static constexpr int service_version = 1;

    virtual ~ScreenshotThumbnails() = default;
    /// `image` (PNG or JPEG) scaled down by area averaging, laid on white, as JPEG.
    virtual Thumbnail render(std::span<const uint8_t> image, const ThumbnailSize& size) const = 0;
};

}  // namespace loupe::builds
