#pragma once
// Thumbnails made once per source blob and size (by the builds plugin's ScreenshotThumbnails),
// stored as blobs of their own and found again through web_thumbnails. THREADS: thread-safe;
// two requests racing on the same thumbnail make the same bytes (same key) and the first
// recorded row wins.

#include <string>

#include "loupe/blob/blob_store.hpp"
#include "loupe/builds/screenshot_thumbnails.hpp"
#include "loupe/db/database.hpp"

namespace loupe::web {

class Thumbnailer {
public:
    Thumbnailer(Database& database, BlobStore& blobs,
                const builds::ScreenshotThumbnails& thumbnails, builds::ThumbnailSize size);

    /// The key of the thumbnail blob of `source_key`, made now if needed. Throws HttpError 415
    /// when the source is no image, 404 when it is gone.
    std::string thumbnail_key(const std::string& source_key);
    BlobStore& blobs() { return blobs_; }

private:
    Database& database_;
    BlobStore& blobs_;
    const builds::ScreenshotThumbnails& thumbnails_;
    builds::ThumbnailSize size_;
    std::string variant_;
};

}  // namespace loupe::web
