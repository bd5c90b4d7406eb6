#include "thumbnail/thumbnailer.hpp"

#include "loupe/http/http_error.hpp"
#include "loupe/json.hpp"
#include "store/thumbnails.hpp"

namespace loupe::web {

Thumbnailer::Thumbnailer(Database& database, BlobStore& blobs,
                         const builds::ScreenshotThumbnails& thumbnails, builds::ThumbnailSize size)
    : database_(database),
      blobs_(blobs),
      thumbnails_(thumbnails),
      size_(size),
      variant_("jpeg-" + std::to_string(size.width) + "x" + std::to_string(size.max_height)) {}

std::string Thumbnailer::thumbnail_key(const std::string& source_key) {
    std::optional<std::string> known;
    {
        auto session = database_.session();
        known = thumbnails::find(*session, source_key, variant_);
    }
    if (known && blobs_.exists(*known)) {
        return *known;
    }
    const auto source = blobs_.read(source_key);
    if (!source) {
        throw HttpError::not_found("Screenshot file not found");
    }
    const auto made = thumbnails_.render(
        std::span(reinterpret_cast<const uint8_t*>(source->data()), source->size()), size_);
    if (!made.ok()) {
        throw HttpError(415, "No thumbnail: " + made.error);
    }
    const std::string key = blobs_.put(made.jpeg);
    database_.transaction([&](soci::session& session) {
        thumbnails::record(session, source_key, variant_, key, now_ms());
    });
    return key;
}

}  // namespace loupe::web
