#pragma once
// PNG container basics shared by the decoders and the encoder: signature, chunk framing, IHDR.

#include <array>
#include <cstdint>
#include <optional>
#include <span>

namespace loupe::imagediff::png {

inline constexpr std::array<uint8_t, 8> kSignature = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
inline constexpr uint32_t kMaxChunkLength = 0x7fffffff;  ///< PNG's 2^31 - 1 limit
inline constexpr size_t kChunkOverhead = 12;             ///< length, type, CRC

enum ColorType : uint8_t { gray = 0, rgb = 2, indexed = 3, gray_alpha = 4, rgba = 6 };

inline uint32_t read_be32(const uint8_t* p) {
    return (uint32_t{p[0]} << 24) | (uint32_t{p[1]} << 16) | (uint32_t{p[2]} << 8) | uint32_t{p[3]};
}

inline void write_be32(uint8_t* p, uint32_t value) {
    p[0] = static_cast<uint8_t>(value >> 24);
    p[1] = static_cast<uint8_t>(value >> 16);
    p[2] = static_cast<uint8_t>(value >> 8);
    p[3] = static_cast<uint8_t>(value);
}

/// A four-letter chunk type as the big-endian integer of its bytes, e.g. chunk_type("IDAT").
constexpr uint32_t chunk_type(const char (&name)[5]) {
    return (uint32_t(uint8_t(name[0])) << 24) | (uint32_t(uint8_t(name[1])) << 16) |
           (uint32_t(uint8_t(name[2])) << 8) | uint32_t(uint8_t(name[3]));
}

struct Ihdr {
    uint32_t width = 0;
    uint32_t height = 0;
    uint8_t bit_depth = 0;
    uint8_t color_type = 0;
    uint8_t compression = 0;
    uint8_t filter = 0;
    uint8_t interlace = 0;
};

bool has_signature(std::span<const uint8_t> bytes);

/// Parses the signature and a CRC-valid IHDR as the first chunk. Field values are not
/// validated beyond that (libspng reports invalid combinations).
std::optional<Ihdr> read_ihdr(std::span<const uint8_t> bytes);

/// Sum of the IDAT chunks' data lengths, over the chunks whose framing is intact.
uint64_t idat_bytes(std::span<const uint8_t> png);

/// True when `compressed` bytes of zlib data can possibly expand to the pixel data `ihdr`
/// declares (deflate expands at most about 1032:1). Lets a 100-byte file that claims 80
/// megapixels fail before anything the size of the image is allocated.
bool is_plausible_size(const Ihdr& ihdr, uint64_t compressed);

/// CRC-32 of a chunk's type and data (the four type bytes directly precede the data).
uint32_t chunk_crc(const uint8_t* type_and_data, size_t data_length);

}  // namespace loupe::imagediff::png
