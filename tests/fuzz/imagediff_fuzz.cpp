// libFuzzer entry point: decodes two arbitrary inputs and compares them as the builds plugin
// does. Besides crashes and sanitizer reports it checks:
// - the fast PNG decoder agrees byte for byte with libspng whenever both accept a file;
// - counts are consistent (pass A within pass B within the canvas);
// - a produced mask is a PNG libspng reads, of the canvas size.

#include <spng.h>

#include <cstdio>
#include <cstdlib>
#include <loupe/imagediff/imagediff.hpp>
#include <utility>

#include "decode_context.hpp"
#include "fuzz_input.hpp"
#include "png_decode.hpp"
#include "png_fast_decode.hpp"

namespace imagediff = loupe::imagediff;

namespace {

// Keeps each run fast and its memory small; the limit itself is part of what is tested.
constexpr uint64_t kMaxPixels = 1 << 20;

[[noreturn]] void fail(const char* what) {
    std::fprintf(stderr, "imagediff fuzz check failed: %s\n", what);
    std::abort();
}

void check_png_paths(std::span<const uint8_t> bytes) {
    if (imagediff::sniff_format(bytes) != imagediff::Format::png) {
        return;
    }
    imagediff::DecodeOptions options;
    options.max_pixels = kMaxPixels;
    imagediff::Image reference;
    try {
        imagediff::decode_png_spng(bytes, reference, options);
    } catch (const imagediff::DecodeError&) {
        return;
    }
    static imagediff::DecodeContext context;
    imagediff::Image fast;
    if (imagediff::decode_png_fast(bytes, fast, context) &&
        (fast.width != reference.width || fast.height != reference.height ||
         fast.rgba != reference.rgba)) {
        fail("the fast PNG path and libspng decode differently");
    }
}

void check_mask(const imagediff::DiffResult& result) {
    spng_ctx* ctx = spng_ctx_new(0);
    spng_set_png_buffer(ctx, result.mask_png.data(), result.mask_png.size());
    spng_ihdr ihdr{};
    size_t size = 0;
    std::vector<uint8_t> rgba;
    int rc = spng_get_ihdr(ctx, &ihdr);
    rc = rc ? rc : spng_decoded_image_size(ctx, SPNG_FMT_RGBA8, &size);
    if (rc == 0) {
        rgba.resize(size);
        rc = spng_decode_image(ctx, rgba.data(), size, SPNG_FMT_RGBA8, SPNG_DECODE_TRNS);
    }
    spng_ctx_free(ctx);
    if (rc != 0 || ihdr.width != result.width || ihdr.height != result.height) {
        fail("the mask is not a PNG of the canvas size");
    }
    uint64_t red = 0;
    for (size_t i = 0; i < rgba.size(); i += 4) {
        red += rgba[i + 3] != 0 ? 1 : 0;
    }
    const imagediff::PassResult& chosen =
        result.chosen_pass == 1 ? result.base_pass : result.color_pass;
    if (red != chosen.differing_pixels) {
        fail("the mask does not paint exactly the chosen pass's pixels");
    }
    const imagediff::Image mask{ihdr.width, ihdr.height, std::move(rgba)};
    if (result.fingerprint != imagediff::mask_fingerprint(mask)) {
        fail("the fingerprint is not the mask's");
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const imagediff::fuzz::Input input = imagediff::fuzz::split_input({data, size});
    check_png_paths(input.base);
    check_png_paths(input.head);

    static const double kThresholds[] = {0.5, 0.0, 1.0, 0.1};
    imagediff::CompareOptions options;
    options.threshold = kThresholds[input.flags & 3];
    options.threads = (input.flags & 4) != 0 ? 3 : 1;
    options.want_mask = (input.flags & 8) == 0;
    options.max_canvas_pixels = kMaxPixels;  // larger canvases are scaled down to this
    imagediff::DecodeOptions decode_options;
    decode_options.max_pixels = kMaxPixels;

    static imagediff::Differ differ;  // reused, as in the plugin
    imagediff::DiffResult result;
    try {
        result = differ.diff_bytes(input.base, input.head, options, decode_options);
    } catch (const imagediff::DecodeError&) {
        return 0;
    }
    const uint64_t canvas = uint64_t{result.width} * result.height;
    if (result.base_pass.differing_pixels > result.color_pass.differing_pixels ||
        result.color_pass.differing_pixels > canvas || canvas > kMaxPixels) {
        fail("inconsistent counts");
    }
    if ((result.chosen_pass != 0) != (result.score > 0)) {
        fail("a score without a chosen pass");
    }
    if (options.want_mask && result.chosen_pass != 0) {
        check_mask(result);
    } else if (!result.mask_png.empty()) {
        fail("a mask nobody asked for");
    }
    return 0;
}
