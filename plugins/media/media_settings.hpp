#pragma once
// The media plugin's keys (`plugins.media.*`), read once at install.

#include <cstdint>
#include <string>

#include "loupe/config/config_view.hpp"

namespace loupe::media {

struct MediaSettings {
    int64_t max_file_bytes = 500LL * 1024 * 1024;  ///< largest file accepted (413 above)
    int64_t upload_ttl_ms = 30LL * 60 * 1000;      ///< how long an upload form stays valid
};

/// Throws std::runtime_error naming the key at fault.
MediaSettings read_media_settings(const ConfigView& config);

}  // namespace loupe::media
