#pragma once
// Which files a media may be, and what its bytes really are: the content types Argos accepts,
// the kind (image or video) each belongs to, and a sniff of the first bytes that names the
// format and, for images, reads the dimensions from the header. The server never trusts the
// declared type: the bytes decide.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace loupe::media {

/// image/png, image/jpeg, image/webp, image/avif, image/gif, video/mp4, video/webm,
/// video/quicktime.
const std::vector<std::string>& accepted_content_types();

/// Lower-cased, parameters (";charset=...") dropped, surrounding blanks trimmed.
std::string normalized_content_type(std::string_view declared);

bool is_video_type(std::string_view content_type);

struct SniffedFile {
    std::string content_type;  ///< one of accepted_content_types()
    std::optional<int64_t> width;
    std::optional<int64_t> height;
};

/// The format of a file from its first bytes (64 KiB suffice); nullopt when it is none of the
/// accepted ones.
std::optional<SniffedFile> sniff_media(std::string_view head);

}  // namespace loupe::media
