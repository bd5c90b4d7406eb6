#pragma once
// Thumbnails made once per source blob and size (by the builds plugin's ScreenshotThumbnails),
// stored as blobs of their own and found again through web_thumbnails. Decoding a screenshot
// takes as much memory as a diff of it, so each decode holds its need from the builds plugin's
// image memory budget (the one the diff workers share), and one source is decoded once at a
// time: concurrent requests for a thumbnail not yet made wait for the decode already running
// instead of starting their own.
// THREADS: thread-safe.

#include <chrono>
#include <optional>
#include <string>

#include "loupe/blob/blob_store.hpp"
#include "loupe/builds/image_memory.hpp"
#include "loupe/builds/screenshot_thumbnails.hpp"
#include "loupe/cache/single_flight_cache.hpp"
#include "loupe/db/database.hpp"
#include "loupe/metrics/metrics.hpp"

namespace loupe::web {

class Thumbnailer {
public:
    /// `memory` (the builds plugin's budget) and `metrics` may be null: then decodes are not
    /// bounded, or not counted.
    Thumbnailer(Database& database, BlobStore& blobs,
                const builds::ScreenshotThumbnails& thumbnails, builds::ThumbnailSize size,
                builds::ImageMemory* memory, metrics::Metrics* metrics);

    /// The key of the thumbnail blob of `source_key`, made now if needed. Throws HttpError 415
    /// when the source is no image, 404 when it is gone.
    std::string thumbnail_key(const std::string& source_key);
    BlobStore& blobs() { return blobs_; }

private:
    std::optional<std::string> known(const std::string& source_key);
    /// Decodes, scales, stores and records one thumbnail (the single flight's leader does).
    std::string make(const std::string& source_key);

    Database& database_;
    BlobStore& blobs_;
    const builds::ScreenshotThumbnails& thumbnails_;
    builds::ThumbnailSize size_;
    std::string variant_;
    builds::ImageMemory* memory_;
    metrics::Counter* made_ = nullptr;
    /// Only the single flight: a made key is kept a millisecond (its blob may be swept later).
    SingleFlightCache<std::string, std::string> in_flight_{
        {.ttl = std::chrono::milliseconds(1), .capacity = 1024}};
};

}  // namespace loupe::web
