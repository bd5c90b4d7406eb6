#pragma once
// Thumbnails made once per source blob and size, stored as blobs of their own and found again
// through web_thumbnails. THREADS: thread-safe; two requests racing on the same thumbnail make
// the same bytes (same key) and the first recorded row wins.

#include <string>

#include "loupe/blob/blob_store.hpp"
#include "loupe/db/database.hpp"
#include "thumbnail/thumbnail_image.hpp"

namespace loupe::web {

class Thumbnailer {
public:
    Thumbnailer(Database& database, BlobStore& blobs, ThumbnailSize size);

    /// The key of the thumbnail blob of `source_key`, made now if needed. Throws
    /// imagediff::DecodeError when the source is no image, HttpError 404 when it is gone.
    std::string thumbnail_key(const std::string& source_key);
    BlobStore& blobs() { return blobs_; }

private:
    Database& database_;
    BlobStore& blobs_;
    ThumbnailSize size_;
    std::string variant_;
};

}  // namespace loupe::web
