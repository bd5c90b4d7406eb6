// Writes the fuzzer's seed corpus into a directory: small pairs covering the fast PNG path,
// libspng's formats (palette, grey, 16-bit, interlaced, tRNS), JPEG and mixed sizes.
// Usage: loupe_imagediff_fuzz_seeds DIR

#include <spng.h>
#include <turbojpeg.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "fuzz_input.hpp"

namespace {

struct Png {
    uint32_t width, height;
    uint8_t color_type, bit_depth;
    bool interlaced;
    bool with_trns;
};

unsigned channels_of(uint8_t color_type) {
    switch (color_type) {
        case 2:
            return 3;
        case 4:
            return 2;
        case 6:
            return 4;
        default:
            return 1;
    }
}

// A screenshot-ish pattern: flat areas, an edge, a gradient, some noise.
uint8_t sample(uint32_t x, uint32_t y, unsigned c, uint32_t variant) {
    if (y < 4) {
        return 255;
    }
    if (x < 6) {
        return static_cast<uint8_t>(30 + c * 40);
    }
    if (y > 20) {
        return static_cast<uint8_t>((x * 9 + c * 50 + variant) & 0xff);
    }
    return static_cast<uint8_t>(((x * 7919 + y * 104729 + c * 31) * (variant + 1)) >> 5);
}

std::vector<uint8_t> encode_png(const Png& p, uint32_t variant) {
    const unsigned channels = channels_of(p.color_type);
    const size_t row_bits = size_t{p.width} * channels * p.bit_depth;
    const size_t row_bytes = (row_bits + 7) / 8;
    std::vector<uint8_t> samples(row_bytes * p.height);
    for (uint32_t y = 0; y < p.height; ++y) {
        for (size_t i = 0; i < row_bytes; ++i) {
            samples[y * row_bytes + i] = sample(static_cast<uint32_t>(i / channels), y,
                                                static_cast<unsigned>(i % channels), variant);
        }
    }
    spng_ctx* ctx = spng_ctx_new(SPNG_CTX_ENCODER);
    spng_set_option(ctx, SPNG_ENCODE_TO_BUFFER, 1);
    spng_ihdr ihdr{p.width,
                   p.height,
                   p.bit_depth,
                   p.color_type,
                   0,
                   0,
                   static_cast<uint8_t>(p.interlaced ? 1 : 0)};
    spng_set_ihdr(ctx, &ihdr);
    if (p.color_type == 3) {
        spng_plte plte{};
        plte.n_entries = 1u << p.bit_depth;
        for (uint32_t i = 0; i < plte.n_entries; ++i) {
            plte.entries[i] = {uint8_t(i * 40), uint8_t(255 - i * 17), uint8_t(i * 90), 255};
        }
        spng_set_plte(ctx, &plte);
    }
    if (p.with_trns) {
        spng_trns trns{};
        trns.gray = 255;
        trns.red = trns.green = trns.blue = 255;
        trns.n_type3_entries = 2;
        trns.type3_alpha[0] = 0;
        trns.type3_alpha[1] = 128;
        spng_set_trns(ctx, &trns);
    }
    spng_encode_image(ctx, samples.data(), samples.size(), SPNG_FMT_PNG, SPNG_ENCODE_FINALIZE);
    size_t size = 0;
    int error = 0;
    auto* buffer = static_cast<uint8_t*>(spng_get_png_buffer(ctx, &size, &error));
    std::vector<uint8_t> png;
    if (buffer != nullptr && error == 0) {
        png.assign(buffer, buffer + size);
    }
    std::free(buffer);
    spng_ctx_free(ctx);
    return png;
}

std::vector<uint8_t> encode_jpeg(uint32_t width, uint32_t height, int subsampling,
                                 uint32_t variant) {
    std::vector<uint8_t> rgb(size_t{width} * height * 3);
    for (uint32_t y = 0; y < height; ++y) {
        for (uint32_t x = 0; x < width; ++x) {
            for (unsigned c = 0; c < 3; ++c) {
                rgb[(size_t{y} * width + x) * 3 + c] = sample(x, y, c, variant);
            }
        }
    }
    tjhandle handle = tjInitCompress();
    unsigned char* buffer = nullptr;
    unsigned long size = 0;
    std::vector<uint8_t> jpeg;
    if (tjCompress2(handle, rgb.data(), static_cast<int>(width), 0, static_cast<int>(height),
                    TJPF_RGB, &buffer, &size, subsampling, 80, 0) == 0) {
        jpeg.assign(buffer, buffer + size);
    }
    tjFree(buffer);
    tjDestroy(handle);
    return jpeg;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 2) {
        std::fprintf(stderr, "usage: %s DIR\n", argv[0]);
        return 2;
    }
    const std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    int count = 0;
    const auto write = [&](const std::string& name, uint8_t flags, const std::vector<uint8_t>& base,
                           const std::vector<uint8_t>& head) {
        if (base.empty() || head.empty()) {
            std::fprintf(stderr, "seed %s: encoding failed\n", name.c_str());
            std::exit(1);
        }
        const std::vector<uint8_t> data = loupe::imagediff::fuzz::join_input(flags, base, head);
        std::ofstream(dir / name, std::ios::binary)
            .write(reinterpret_cast<const char*>(data.data()),
                   static_cast<std::streamsize>(data.size()));
        ++count;
    };
    const Png rgb{32, 24, 2, 8, false, false};
    const Png rgba{32, 24, 6, 8, false, false};
    write("rgb-pair", 0, encode_png(rgb, 0), encode_png(rgb, 1));
    write("rgb-identical", 0, encode_png(rgb, 0), encode_png(rgb, 0));
    write("rgba-vs-rgb-sizes", 4, encode_png(rgba, 2), encode_png({40, 20, 2, 8, false, false}, 3));
    write("palette-trns-vs-grey16-interlaced", 1, encode_png({24, 24, 3, 4, false, true}, 4),
          encode_png({24, 24, 0, 16, true, false}, 5));
    write("grey-alpha-vs-palette1", 2, encode_png({16, 30, 4, 8, false, false}, 6),
          encode_png({16, 30, 3, 1, true, true}, 7));
    write("rgb16-trns-vs-rgba16", 3, encode_png({20, 20, 2, 16, false, true}, 8),
          encode_png({20, 20, 6, 16, true, false}, 9));
    write("jpeg-pair", 0, encode_jpeg(32, 24, TJSAMP_420, 0), encode_jpeg(32, 24, TJSAMP_444, 1));
    write("jpeg-grey-vs-png", 8, encode_jpeg(24, 16, TJSAMP_GRAY, 2), encode_png(rgb, 3));
    std::printf("wrote %d seeds to %s\n", count, dir.c_str());
    return 0;
}
