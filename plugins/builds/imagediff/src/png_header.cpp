#include "png_header.hpp"

#include <libdeflate.h>

#include <algorithm>

namespace loupe::imagediff::png {

bool has_signature(std::span<const uint8_t> bytes) {
    return bytes.size() >= kSignature.size() &&
           std::equal(kSignature.begin(), kSignature.end(), bytes.begin());
}

std::optional<Ihdr> read_ihdr(std::span<const uint8_t> bytes) {
    constexpr size_t kIhdrLength = 13;
    if (!has_signature(bytes) || bytes.size() < kSignature.size() + kChunkOverhead + kIhdrLength) {
        return std::nullopt;
    }
    const uint8_t* chunk = bytes.data() + kSignature.size();
    if (read_be32(chunk) != kIhdrLength || read_be32(chunk + 4) != chunk_type("IHDR") ||
        read_be32(chunk + 8 + kIhdrLength) != chunk_crc(chunk + 4, kIhdrLength)) {
        return std::nullopt;
    }
    const uint8_t* data = chunk + 8;
    return Ihdr{read_be32(data), read_be32(data + 4), data[8], data[9], data[10], data[11],
                data[12]};
}

uint64_t idat_bytes(std::span<const uint8_t> png) {
    uint64_t total = 0;
    size_t pos = kSignature.size();
    while (png.size() - pos >= kChunkOverhead) {
        const uint32_t length = read_be32(png.data() + pos);
        if (length > kMaxChunkLength || png.size() - pos - kChunkOverhead < length) {
            break;
        }
        if (read_be32(png.data() + pos + 4) == chunk_type("IDAT")) {
            total += length;
        }
        pos += kChunkOverhead + length;
    }
    return total;
}

bool is_plausible_size(const Ihdr& ihdr, uint64_t compressed) {
    constexpr double kMaxDeflateRatio = 1032;
    const double channels = ihdr.color_type == rgb          ? 3
                            : ihdr.color_type == rgba       ? 4
                            : ihdr.color_type == gray_alpha ? 2
                                                            : 1;
    // A lower bound on the filtered data, interlaced or not: the pixel bits alone. In doubles:
    // an approximate bound is fine and nothing can overflow.
    const double minimum = double(ihdr.width) * double(ihdr.height) * channels * ihdr.bit_depth / 8;
    return double(compressed) * kMaxDeflateRatio + kMaxDeflateRatio >= minimum;
}

uint32_t chunk_crc(const uint8_t* type_and_data, size_t data_length) {
    return libdeflate_crc32(0, type_and_data, data_length + 4);
}

}  // namespace loupe::imagediff::png
