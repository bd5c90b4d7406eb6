#include "thumbnail/thumbnailer.hpp"

#include <algorithm>
#include <exception>

#include "loupe/http/http_error.hpp"
#include "loupe/imagediff/imagediff.hpp"
#include "loupe/json.hpp"
#include "store/thumbnails.hpp"

namespace loupe::web {

Thumbnailer::Thumbnailer(Database& database, BlobStore& blobs, ThumbnailSize size,
                         builds::ImageMemory* memory, metrics::Metrics* metrics)
    : database_(database),
      blobs_(blobs),
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
    std::promise<std::string> made;
    std::shared_future<std::string> pending;
    {
        std::lock_guard lock(mutex_);
        const auto running = in_flight_.find(source_key);
        if (running != in_flight_.end()) {
            pending = running->second;
        } else {
            in_flight_.emplace(source_key, made.get_future().share());
        }
    }
    if (pending.valid()) {
        return pending.get();  // the leader's key, or its exception
    }
    try {
        // Another instance, or a leader that finished just before this one registered, may
        // have made it meanwhile.
        std::string key;
        if (auto stored = known(source_key)) {
            key = *stored;
        } else {
            key = make(source_key);
        }
        made.set_value(key);
        std::lock_guard lock(mutex_);
        in_flight_.erase(source_key);
        return key;
    } catch (...) {
        made.set_exception(std::current_exception());
        std::lock_guard lock(mutex_);
        in_flight_.erase(source_key);
        throw;
    }
}

std::string Thumbnailer::make(const std::string& source_key) {
    std::unique_ptr<builds::ImageMemory::Reservation> reservation;
    if (memory_ != nullptr) {
        const auto info = blobs_.stat(source_key);
        const auto prefix = blobs_.read_prefix(source_key, imagediff::image_size_prefix_bytes);
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
    const auto bytes = make_thumbnail(
        std::span(reinterpret_cast<const uint8_t*>(source->data()), source->size()), size_);
    reservation.reset();
    const std::string key = blobs_.put(bytes);
    database_.transaction([&](soci::session& session) {
        thumbnails::record(session, source_key, variant_, key, now_ms());
    });
    if (made_ != nullptr) {
        made_->add();
    }
    return key;
}

}  // namespace loupe::web
