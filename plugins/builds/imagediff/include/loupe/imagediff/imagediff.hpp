#pragma once
// Loupe's image diff engine: decode PNG/JPEG to RGBA8 and compare two screenshots the way
// Argos does (a base pass and a colour pass, then Argos's choice between them), both in one sweep,
// with exact pixel counts. Pure logic: no Loupe core dependency. Thread-safety: a Differ is used by
// one thread at a time (it owns reusable buffers); free functions are thread-safe.

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace loupe::imagediff {

/// 8-bit RGBA, rows packed (stride = 4 * width). The vector is reused across decodes.
struct Image {
    uint32_t width = 0;
    uint32_t height = 0;
    std::vector<uint8_t> rgba;
    uint64_t pixel_count() const { return uint64_t{width} * height; }
};

enum class Format { png, jpeg, unknown };

/// Thrown for malformed/truncated files, unsupported formats, a content that does not match
/// the declared type, or images over the pixel limit. what() is a user-facing sentence.
class DecodeError : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

struct DecodeOptions {
    /// Refuse larger images before allocating. Twice the 80 MP canvas limit, so tall pages past
    /// it are compared scaled down; a Differ holds about 4 bytes per pixel of each image, both
    /// at once (1.3 GB for two images at this limit, see README).
    uint64_t max_pixels = 160'000'000;
};

/// Detects the format from the magic bytes.
Format sniff_format(std::span<const uint8_t> bytes);

struct ImageSize {
    uint32_t width = 0;
    uint32_t height = 0;
};

/// The largest prefix read_image_size needs: PNG's IHDR is at the start, a JPEG frame header
/// comes after its EXIF/ICC segments (at most a few of 64 KiB each in practice).
inline constexpr std::size_t image_size_prefix_bytes = 256 * 1024;

/// Width and height from a file's first bytes (PNG IHDR with a valid CRC, JPEG frame header),
/// without decoding pixels: nullopt when they are not there or not valid. The rest of the file
/// is not checked: decode() may still refuse it.
std::optional<ImageSize> read_image_size(std::span<const uint8_t> prefix);

/// Decodes PNG (any colour type/bit depth/interlace) or JPEG into `out` (buffer reused).
void decode(std::span<const uint8_t> bytes, Image& out, const DecodeOptions& options = {});

/// Encodes RGBA8 as PNG (fast settings). Used for diff masks.
std::vector<uint8_t> encode_png(const Image& image);

/// A rectangle of the images whose pixels never count as different (a clock, an ad): pixels
/// x <= px < x + width, y <= py < y + height, in the images' own pixels (the canvas before any
/// scaling down). Parts outside the canvas are ignored; regions may overlap.
struct IgnoreRegion {
    uint32_t x = 0;
    uint32_t y = 0;
    uint32_t width = 0;
    uint32_t height = 0;
};

struct CompareOptions {
    double threshold = 0.5;  ///< per-screenshot threshold t; r = 2t scales both passes
    /// Masked regions: a pixel inside one is neither counted nor marked (so it changes neither
    /// the score nor the fingerprint). Pixels around a region are compared as usual.
    std::vector<IgnoreRegion> ignore_regions;
    bool want_mask = true;  ///< produce the chosen pass's mask PNG and its fingerprint
    unsigned threads = 0;   ///< row-band threads; 0 = hardware concurrency
    /// A larger canvas is scaled down to fit, both images by the same factor (Argos's limit).
    uint64_t max_canvas_pixels = 80'000'000;
};

struct PassResult {
    double threshold = 0;  ///< the odiff-style threshold used (0.15r or 0.0225r)
    uint64_t differing_pixels = 0;
    double fraction = 0;  ///< differing_pixels / canvas pixels, exact
    double adjusted = 0;  ///< after Argos's ignore floors (A' or B')
};

enum class Verdict { unchanged, changed };

struct DiffResult {
    uint32_t width = 0;  ///< canvas (max of both, scaled down past max_canvas_pixels)
    uint32_t height = 0;
    uint32_t base_width = 0, base_height = 0, head_width = 0, head_height = 0;
    PassResult base_pass;   ///< pass A: 0.15r, anti-aliasing ignored
    PassResult color_pass;  ///< pass B: 0.0225r
    int chosen_pass = 0;    ///< 0 none, 1 base pass, 2 colour pass
    double score = 0;       ///< final Argos score
    Verdict verdict = Verdict::unchanged;
    std::vector<uint8_t> mask_png;  ///< chosen pass's mask (red on transparent); empty if none
    std::string fingerprint;        ///< mask_fingerprint of mask_png; empty if no mask
    double decode_ms = 0, compare_ms = 0, encode_ms = 0;
};

/// Compares two decoded images (different sizes allowed: padded top-left, transparent).
DiffResult compare(const Image& base, const Image& head, const CompareOptions& options = {});

/// Argos's mask fingerprint (its clean rules, not its library's edge quirks): "empty" when no pixel
/// is red (R >= 200, G <= 90, B <= 90, A >= 16), else "v1:g16:d1:t0.002,0.02,0.08:" + 16 hex
/// digits. Equal for masks whose red shapes match up to translation (away from the mask's borders,
/// which clip the dilation).
std::string mask_fingerprint(const Image& rgba);

/// Reusable engine: decode both inputs into owned buffers (kept across calls), then compare.
class Differ {
public:
    Differ();
    ~Differ();
    Differ(const Differ&) = delete;
    Differ& operator=(const Differ&) = delete;

    DiffResult diff_bytes(std::span<const uint8_t> base, std::span<const uint8_t> head,
                          const CompareOptions& options = {},
                          const DecodeOptions& decode_options = {});
    DiffResult diff_files(const std::string& base_path, const std::string& head_path,
                          const CompareOptions& options = {},
                          const DecodeOptions& decode_options = {});

private:
    struct State;
    State* state_;
};

}  // namespace loupe::imagediff
