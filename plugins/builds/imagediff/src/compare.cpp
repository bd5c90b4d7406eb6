#include <algorithm>
#include <cmath>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "argos_score.hpp"
#include "canvas_scale.hpp"
#include "compare_context.hpp"
#include "compare_sweep.hpp"
#include "fingerprint.hpp"
#include "png_encode.hpp"
#include "stopwatch.hpp"
#include "yiq.hpp"

namespace loupe::imagediff {
namespace {

// Below about half a megapixel per band a thread costs more than it saves.
constexpr uint64_t kMinPixelsPerBand = uint64_t{1} << 19;

void check_inputs(const Image& base, const Image& head, const CompareOptions& options) {
    for (const Image* image : {&base, &head}) {
        if (image->rgba.size() < image->pixel_count() * 4) {
            throw std::invalid_argument("compare: an image's buffer is smaller than its size");
        }
    }
    if (!(options.threshold >= 0.0 && options.threshold <= 1.0)) {
        throw std::invalid_argument("compare: the threshold must be between 0 and 1");
    }
    if (std::max(base.width, head.width) > 0x7fffffffu) {
        throw std::invalid_argument("compare: images wider than 2^31 - 1 pixels are not supported");
    }
}

uint32_t band_count(const CompareOptions& options, uint32_t width, uint32_t height) {
    const uint64_t threads =
        options.threads != 0 ? options.threads : std::max(1u, std::thread::hardware_concurrency());
    const uint64_t by_size = std::max<uint64_t>(1, uint64_t{width} * height / kMinPixelsPerBand);
    return static_cast<uint32_t>(std::min({threads, by_size, uint64_t{height}}));
}

PassCounts sweep_in_bands(const SweepParams& params, uint32_t height, uint32_t bands) {
    std::vector<PassCounts> band_counts(bands);
    const auto band_row = [&](uint32_t band) {
        return static_cast<uint32_t>(uint64_t{height} * band / bands);
    };
    {
        std::vector<std::jthread> workers;
        for (uint32_t band = 1; band < bands; ++band) {
            workers.emplace_back([&, band] {
                band_counts[band] = sweep_rows(params, band_row(band), band_row(band + 1));
            });
        }
        band_counts[0] = sweep_rows(params, 0, band_row(1));
    }
    PassCounts total;
    for (const PassCounts& counts : band_counts) {
        total.base_pass += counts.base_pass;
        total.color_pass += counts.color_pass;
    }
    return total;
}

/// How the images' pixels map onto the canvas compared: 1 unless it was scaled down to fit.
struct CanvasScale {
    double x = 1.0;
    double y = 1.0;
};

// The regions on the canvas, scaled as the images were and clipped to the canvas; empty ones
// dropped. A scaled edge rounds outwards, so a mask still covers what it covered unscaled.
std::vector<CanvasRect> canvas_rects(const std::vector<IgnoreRegion>& regions, CanvasScale scale,
                                     uint32_t width, uint32_t height) {
    std::vector<CanvasRect> rects;
    for (const IgnoreRegion& region : regions) {
        const auto edge = [](uint64_t value, double factor, uint32_t limit, bool upper) {
            const double scaled = static_cast<double>(value) * factor;
            const double rounded = upper ? std::ceil(scaled) : std::floor(scaled);
            return static_cast<uint32_t>(std::min<double>(rounded, limit));
        };
        const CanvasRect rect{edge(region.x, scale.x, width, false),
                              edge(region.y, scale.y, height, false),
                              edge(uint64_t{region.x} + region.width, scale.x, width, true),
                              edge(uint64_t{region.y} + region.height, scale.y, height, true)};
        if (rect.x0 < rect.x1 && rect.y0 < rect.y1) {
            rects.push_back(rect);
        }
    }
    return rects;
}

DiffResult compare_on_canvas(const Image& base, const Image& head, const CompareOptions& options,
                             CompareScratch& scratch, CanvasScale scale) {
    const Stopwatch compare_time;
    DiffResult result;
    result.base_width = base.width;
    result.base_height = base.height;
    result.head_width = head.width;
    result.head_height = head.height;
    result.width = std::max(base.width, head.width);
    result.height = std::max(base.height, head.height);
    if (result.width == 0 || result.height == 0) {
        apply_argos_rule(result, options.threshold);
        return result;
    }

    SweepParams params{PaddedView(base, result.width, result.height),
                       PaddedView(head, result.width, result.height),
                       yiq::max_delta_fixed(base_pass_threshold(options.threshold)),
                       yiq::max_delta_fixed(color_pass_threshold(options.threshold)),
                       {}};
    const std::vector<CanvasRect> ignored =
        canvas_rects(options.ignore_regions, scale, result.width, result.height);
    params.ignored = ignored;
    if (options.want_mask) {
        const size_t row_bytes = png::mask_row_bytes(result.width);
        const size_t bitmap_bytes = row_bytes * result.height;
        scratch.base_pass_bits.assign(bitmap_bytes, 0);
        scratch.color_pass_bits.assign(bitmap_bytes, 0);
        params.bitmaps = {scratch.base_pass_bits.data(), scratch.color_pass_bits.data(), row_bytes};
    }

    const PassCounts counts =
        sweep_in_bands(params, result.height, band_count(options, result.width, result.height));
    result.base_pass.differing_pixels = counts.base_pass;
    result.color_pass.differing_pixels = counts.color_pass;
    apply_argos_rule(result, options.threshold);
    result.compare_ms = compare_time.elapsed_ms();

    if (options.want_mask && result.chosen_pass != 0) {
        const Stopwatch encode_time;
        const std::vector<uint8_t>& bits =
            result.chosen_pass == 1 ? scratch.base_pass_bits : scratch.color_pass_bits;
        result.mask_png = png::encode_mask(bits, result.width, result.height);
        // Each scanline starts with its filter byte.
        result.fingerprint = mask_fingerprint(MaskBits{
            bits.data() + 1, png::mask_row_bytes(result.width), result.width, result.height});
        result.encode_ms = encode_time.elapsed_ms();
    }
    return result;
}

void downscale_pair(const Image& base, const Image& head, Image& scaled_base, Image& scaled_head,
                    CanvasSize from, CanvasSize to, const CompareOptions& options) {
    if (options.threads == 1) {
        downscale(base, scaled_base, from, to);
        downscale(head, scaled_head, from, to);
        return;
    }
    std::future<void> head_job =
        std::async(std::launch::async, [&] { downscale(head, scaled_head, from, to); });
    downscale(base, scaled_base, from, to);
    head_job.get();
}

// `scaled_base` and `scaled_head` receive the scaled images when the canvas is over the limit;
// they may be `base` and `head` themselves.
DiffResult compare_fitted(const Image& base, const Image& head, const CompareOptions& options,
                          CompareScratch& scratch, Image& scaled_base, Image& scaled_head) {
    check_inputs(base, head, options);
    const CanvasSize canvas{std::max(base.width, head.width), std::max(base.height, head.height)};
    const CanvasSize fitted = fit_canvas(canvas, options.max_canvas_pixels);
    if (fitted == canvas) {
        return compare_on_canvas(base, head, options, scratch, CanvasScale{});
    }
    DiffResult sizes;
    sizes.base_width = base.width;
    sizes.base_height = base.height;
    sizes.head_width = head.width;
    sizes.head_height = head.height;
    const Stopwatch scale_time;
    downscale_pair(base, head, scaled_base, scaled_head, canvas, fitted, options);
    const double scale_ms = scale_time.elapsed_ms();

    const CanvasScale scale{static_cast<double>(fitted.width) / canvas.width,
                            static_cast<double>(fitted.height) / canvas.height};
    DiffResult result = compare_on_canvas(scaled_base, scaled_head, options, scratch, scale);
    result.base_width = sizes.base_width;
    result.base_height = sizes.base_height;
    result.head_width = sizes.head_width;
    result.head_height = sizes.head_height;
    result.compare_ms += scale_ms;
    return result;
}

}  // namespace

DiffResult compare(const Image& base, const Image& head, const CompareOptions& options,
                   CompareScratch& scratch) {
    return compare_fitted(base, head, options, scratch, scratch.scaled_base, scratch.scaled_head);
}

DiffResult compare_in_place(Image& base, Image& head, const CompareOptions& options,
                            CompareScratch& scratch) {
    return compare_fitted(base, head, options, scratch, base, head);
}

DiffResult compare(const Image& base, const Image& head, const CompareOptions& options) {
    CompareScratch scratch;
    return compare(base, head, options, scratch);
}

}  // namespace loupe::imagediff
