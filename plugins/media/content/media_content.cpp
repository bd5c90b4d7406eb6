#include "content/media_content.hpp"

#include <algorithm>
#include <cctype>

namespace loupe::media {
namespace {

uint32_t big_endian(std::string_view bytes, std::size_t at, int count) {
    uint32_t value = 0;
    for (int i = 0; i < count; ++i) {
        value = (value << 8) | static_cast<uint8_t>(bytes[at + static_cast<std::size_t>(i)]);
    }
    return value;
}

uint32_t little_endian(std::string_view bytes, std::size_t at, int count) {
    uint32_t value = 0;
    for (int i = count - 1; i >= 0; --i) {
        value = (value << 8) | static_cast<uint8_t>(bytes[at + static_cast<std::size_t>(i)]);
    }
    return value;
}

SniffedFile image(std::string type, uint32_t width, uint32_t height) {
    SniffedFile file{std::move(type), std::nullopt, std::nullopt};
    if (width > 0 && height > 0) {
        file.width = width;
        file.height = height;
    }
    return file;
}

// PNG: the signature, then the IHDR chunk with width and height (big-endian).
std::optional<SniffedFile> png(std::string_view head) {
    if (head.size() < 24 || head.substr(0, 8) != std::string_view("\x89PNG\r\n\x1a\n", 8)) {
        return std::nullopt;
    }
    return image("image/png", big_endian(head, 16, 4), big_endian(head, 20, 4));
}

// GIF: "GIF87a"/"GIF89a", then the logical screen's width and height (little-endian).
std::optional<SniffedFile> gif(std::string_view head) {
    if (head.size() < 10 || (head.substr(0, 6) != "GIF87a" && head.substr(0, 6) != "GIF89a")) {
        return std::nullopt;
    }
    return image("image/gif", little_endian(head, 6, 2), little_endian(head, 8, 2));
}

// JPEG: SOI, then segments up to a start-of-frame marker that holds the height and width.
std::optional<SniffedFile> jpeg(std::string_view head) {
    if (head.size() < 4 || static_cast<uint8_t>(head[0]) != 0xFF ||
        static_cast<uint8_t>(head[1]) != 0xD8 || static_cast<uint8_t>(head[2]) != 0xFF) {
        return std::nullopt;
    }
    std::size_t at = 2;
    while (at + 9 < head.size()) {
        if (static_cast<uint8_t>(head[at]) != 0xFF) {
            break;
        }
        const auto marker = static_cast<uint8_t>(head[at + 1]);
        const bool frame =
            marker >= 0xC0 && marker <= 0xCF && marker != 0xC4 && marker != 0xC8 && marker != 0xCC;
        if (frame) {
            return image("image/jpeg", big_endian(head, at + 7, 2), big_endian(head, at + 5, 2));
        }
        at += 2 + big_endian(head, at + 2, 2);
    }
    return image("image/jpeg", 0, 0);
}

// WebP: a RIFF container of kind "WEBP" whose first chunk is VP8 (lossy), VP8L (lossless) or
// VP8X (extended, with the canvas size).
std::optional<SniffedFile> webp(std::string_view head) {
    if (head.size() < 30 || head.substr(0, 4) != "RIFF" || head.substr(8, 4) != "WEBP") {
        return std::nullopt;
    }
    const auto chunk = head.substr(12, 4);
    if (chunk == "VP8X") {
        return image("image/webp", little_endian(head, 24, 3) + 1, little_endian(head, 27, 3) + 1);
    }
    if (chunk == "VP8L" && static_cast<uint8_t>(head[20]) == 0x2F) {
        const uint32_t bits = little_endian(head, 21, 4);
        return image("image/webp", (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1);
    }
    if (chunk == "VP8 ") {
        return image("image/webp", little_endian(head, 26, 2) & 0x3FFF,
                     little_endian(head, 28, 2) & 0x3FFF);
    }
    return image("image/webp", 0, 0);
}

// ISO base media (MP4, QuickTime, AVIF): an "ftyp" box whose major brand names the format.
std::optional<SniffedFile> iso_media(std::string_view head) {
    if (head.size() < 12 || head.substr(4, 4) != "ftyp") {
        return std::nullopt;
    }
    const auto brand = head.substr(8, 4);
    if (brand == "avif" || brand == "avis") {
        return SniffedFile{"image/avif", std::nullopt, std::nullopt};
    }
    if (brand == "qt  ") {
        return SniffedFile{"video/quicktime", std::nullopt, std::nullopt};
    }
    return SniffedFile{"video/mp4", std::nullopt, std::nullopt};
}

// WebM: an EBML header (Matroska's magic number) whose doc type is "webm".
std::optional<SniffedFile> webm(std::string_view head) {
    if (head.size() < 4 || head.substr(0, 4) != std::string_view("\x1A\x45\xDF\xA3", 4)) {
        return std::nullopt;
    }
    if (head.substr(0, std::min<std::size_t>(head.size(), 64)).find("webm") ==
        std::string_view::npos) {
        return std::nullopt;
    }
    return SniffedFile{"video/webm", std::nullopt, std::nullopt};
}

}  // namespace

const std::vector<std::string>& accepted_content_types() {
    static const std::vector<std::string> types = {"image/png",  "image/jpeg",     "image/webp",
                                                   "image/avif", "image/gif",      "video/mp4",
                                                   "video/webm", "video/quicktime"};
    return types;
}

std::string normalized_content_type(std::string_view declared) {
    std::string type(declared.substr(0, declared.find(';')));
    std::transform(type.begin(), type.end(), type.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    const auto first = type.find_first_not_of(" \t");
    const auto last = type.find_last_not_of(" \t");
    return first == std::string::npos ? "" : type.substr(first, last - first + 1);
}

bool is_video_type(std::string_view content_type) {
    return content_type.starts_with("video/");
}

std::optional<SniffedFile> sniff_media(std::string_view head) {
    for (auto sniff : {png, jpeg, gif, webp, iso_media, webm}) {
        if (auto found = sniff(head)) {
            return found;
        }
    }
    return std::nullopt;
}

}  // namespace loupe::media
