#include "thumbnail/thumbnailer.hpp"

#include <memory>

#include "loupe/http/http_error.hpp"
#include "loupe/json.hpp"
#include "store/thumbnails.hpp"

namespace loupe::web {

Thumbnailer::Thumbnailer(Database& database, BlobStore& blobs,
                         const builds::ScreenshotThumbnails& thumbnails, builds::ThumbnailSize size,
                         builds::ImageMemory* memory, metrics::Metrics* metrics)
    : database_(database),
      blobs_(blobs),
      thumbnails_(thumbnails),
      size_(size),
      variant_("jpeg-" + std::to_string(size.width) + "x" + std::to_string(size.max_height)),
      memory_(memory) {
    if (metrics != nullptr) {
        made_ = &metrics->counter("loupe_thumbnails_made_total",
                                  "Thumbnails this instance decoded and stored (each source once; "
                                  "concurrent requests wait for the same decode).");
    }
}

std::optional<std::string> Thumbnailer::known(const std::string& source_key) {
    std::optional<std::string> key;
    {
        auto session = database_.session();
        key = thumbnails::find(*session, source_key, variant_);
    }
    if (key && blobs_.exists(*key)) {
        return key;
    }
    return std::nullopt;
}

std::string Thumbnailer::thumbnail_key(const std::string& source_key) {
    if (auto key = known(source_key)) {
        return *key;
    }
    // One decode per source at a time; the others wait for it (or get its exception). Another
    // instance, or a flight that ended just before this one began, may have made it meanwhile.
    return in_flight_.get(source_key, [&] {
        if (auto stored = known(source_key)) {
            return *stored;
        }
        return make(source_key);
    });
}

std::string Thumbnailer::make(const std::string& source_key) {
    std::unique_ptr<builds::ImageMemory::Reservation> reservation;
    if (memory_ != nullptr) {
        const auto info = blobs_.stat(source_key);
        const auto prefix = blobs_.read_prefix(source_key, builds::ImageMemory::prefix_bytes);
        if (!info || !prefix) {
            throw HttpError::not_found("Screenshot file not found");
        }
        const auto need = memory_->decode_need(
            std::span(reinterpret_cast<const uint8_t*>(prefix->data()), prefix->size()),
            info->size);
        reservation = memory_->reserve(need, "thumbnail");
    }
    const auto source = blobs_.read(source_key);
    if (!source) {
        throw HttpError::not_found("Screenshot file not found");
    }
    const auto made = thumbnails_.render(
        std::span(reinterpret_cast<const uint8_t*>(source->data()), source->size()), size_);
    reservation.reset();
    if (!made.ok()) {
        throw HttpError(415, "No thumbnail: " + made.error);
    }
    const std::string key = blobs_.put(made.jpeg);
    database_.transaction([&](soci::session& session) {
        thumbnails::record(session, source_key, variant_, key, now_ms());
    });
    if (made_ != nullptr) {
        made_->add();
    }
    return key;
}

}  // namespace loupe::web
