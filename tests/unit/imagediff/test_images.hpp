#pragma once
// Test helpers: synthetic images, encoders (libspng, libjpeg-turbo, and a hand-made PNG writer
// with explicit per-row filters) and a deliberately naive port of odiff used as a reference.

#include <cstdint>
#include <loupe/imagediff/imagediff.hpp>
#include <random>
#include <span>
#include <vector>

namespace loupe::imagediff::test {

struct Rgba {
    uint8_t r = 0, g = 0, b = 0, a = 255;
    bool operator==(const Rgba&) const = default;
};

inline constexpr Rgba kWhite{255, 255, 255, 255};
inline constexpr Rgba kBlack{0, 0, 0, 255};
inline constexpr Rgba kTransparent{0, 0, 0, 0};
inline constexpr Rgba kRed{255, 0, 0, 255};

Image filled(uint32_t width, uint32_t height, Rgba colour);
void set_pixel(Image& image, uint32_t x, uint32_t y, Rgba colour);
Rgba pixel(const Image& image, uint32_t x, uint32_t y);
Rgba grey(uint8_t level);

/// Noise plus flat areas and hard edges, like a screenshot (deterministic per seed).
Image screenshot_like(uint32_t width, uint32_t height, bool with_alpha, uint32_t seed);

/// A copy with some pixels changed: small colour shifts, large changes and a moved block.
Image mutated(const Image& image, uint32_t seed);

struct SpngEncoding {
    uint8_t color_type = 6;  ///< 0 gray, 2 rgb, 3 indexed, 4 gray+alpha, 6 rgba
    uint8_t bit_depth = 8;
    bool interlaced = false;
    int filter_choice = -1;  ///< an SPNG_FILTER_CHOICE_* mask, or -1 for libspng's default
};

/// Encodes raw samples (packed rows as in PNG, 16-bit samples in host order) with libspng.
std::vector<uint8_t> encode_with_spng(std::span<const uint8_t> samples, uint32_t width,
                                      uint32_t height, const SpngEncoding& encoding,
                                      std::span<const Rgba> palette = {},
                                      const std::vector<uint16_t>* trns = nullptr);

/// An 8-bit RGB/RGBA PNG written by hand: `filters[y]` is row y's filter type, the zlib
/// stream is cut into IDAT chunks of `idat_size` bytes.
std::vector<uint8_t> encode_with_filters(const Image& image, bool with_alpha,
                                         std::span<const uint8_t> filters, size_t idat_size = 8192);

/// JPEG from an RGBA image (alpha ignored); subsampling is a TJSAMP_* value.
std::vector<uint8_t> encode_jpeg(const Image& image, int quality, int subsampling);

/// `png` with its IHDR claiming `width` x `height` (CRC fixed up), the rest unchanged.
std::vector<uint8_t> with_dimensions(std::vector<uint8_t> png, uint32_t width, uint32_t height);

struct ReferenceCounts {
    uint64_t base_pass = 0;
    uint64_t color_pass = 0;
    std::vector<uint8_t> base_mask;  ///< 1 per counted pixel, canvas-sized
    std::vector<uint8_t> color_mask;
};

/// odiff 4.5's compare with antialiasing on, run twice on images padded the Argos way, written
/// as plainly as possible (no fast paths): the reference the engine must match exactly.
ReferenceCounts reference_compare(const Image& base, const Image& head, double threshold);

/// odiff's anti-aliasing verdict (detect(base, head) || detect(head, base)) for every pixel of
/// the padded canvas, row by row.
std::vector<uint8_t> reference_antialiasing(const Image& base, const Image& head);

/// Decodes a PNG with libspng directly (for checking masks and encoder output).
Image decode_with_spng(std::span<const uint8_t> png);

}  // namespace loupe::imagediff::test
