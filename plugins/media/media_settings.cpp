#include "media_settings.hpp"

#include <stdexcept>

namespace loupe::media {

MediaSettings read_media_settings(const ConfigView& config) {
    MediaSettings settings;
    settings.max_file_bytes = config.get_int("max_file_bytes", settings.max_file_bytes);
    if (settings.max_file_bytes <= 0) {
        throw std::runtime_error("plugins.media.max_file_bytes must be a positive number of bytes");
    }
    settings.upload_ttl_ms = config.get_int("upload_ttl_ms", settings.upload_ttl_ms);
    if (settings.upload_ttl_ms <= 0) {
        throw std::runtime_error("plugins.media.upload_ttl_ms must be a positive number");
    }
    return settings;
}

}  // namespace loupe::media
