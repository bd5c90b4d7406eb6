#include "png_unfilter.hpp"

#include <cstdlib>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>

#include "png_unfilter_serial.hpp"
#define LOUPE_UNFILTER_X86 1
#endif

namespace loupe::imagediff::png {
namespace {

inline uint32_t load_u32(const uint8_t* p) {
    uint32_t value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

inline void store_u32(uint8_t* p, uint32_t value) {
    std::memcpy(p, &value, sizeof value);
}

inline bool depends_on_left(uint8_t filter) {
    return filter == sub || filter == average || filter == paeth;
}

inline uint8_t paeth_predictor(int a, int b, int c) {
    const int p = a + b - c;
    const int pa = std::abs(p - a);
    const int pb = std::abs(p - b);
    const int pc = std::abs(p - c);
    if (pa <= pb && pa <= pc) {
        return static_cast<uint8_t>(a);
    }
    return static_cast<uint8_t>(pb <= pc ? b : c);
}

// Source pixels are kSrcBytes wide; output and previous-row pixels are always RGBA8.
template <int kSrcBytes>
void unfilter_row_scalar(uint8_t filter, const uint8_t* src, const uint8_t* prev, uint8_t* dst,
                         size_t width) {
    static constexpr uint8_t kZeroPixel[4] = {0, 0, 0, 0};
    for (size_t x = 0; x < width; ++x) {
        const uint8_t* s = src + x * kSrcBytes;
        const uint8_t* b = prev + x * 4;
        uint8_t* d = dst + x * 4;
        const uint8_t* a = x == 0 ? kZeroPixel : d - 4;
        const uint8_t* c = x == 0 ? kZeroPixel : b - 4;
        for (int k = 0; k < kSrcBytes; ++k) {
            int predictor = 0;
            switch (filter) {
                case sub:
                    predictor = a[k];
                    break;
                case up:
                    predictor = b[k];
                    break;
                case average:
                    predictor = (a[k] + b[k]) >> 1;
                    break;
                case paeth:
                    predictor = paeth_predictor(a[k], b[k], c[k]);
                    break;
                default:
                    break;
            }
            d[k] = static_cast<uint8_t>(s[k] + predictor);
        }
        if constexpr (kSrcBytes == 3) {
            d[3] = 255;
        }
    }
}

template <int kSrcBytes>
void unfilter_image_scalar_impl(const uint8_t* filtered, size_t width, size_t height,
                                const uint8_t* zero_row, uint8_t* out) {
    const size_t scanline_bytes = 1 + width * kSrcBytes;
    const uint8_t* prev = zero_row;
    for (size_t y = 0; y < height; ++y) {
        const uint8_t* scanline = filtered + y * scanline_bytes;
        uint8_t* dst = out + y * width * 4;
        unfilter_row_scalar<kSrcBytes>(scanline[0], scanline + 1, prev, dst, width);
        prev = dst;
    }
}

#ifdef LOUPE_UNFILTER_X86

// One pixel in the low 32 bits of a vector. For RGB sources the fourth byte belongs to the
// next pixel: it only ever reaches the alpha lane, which `opaque` (0xff000000) overwrites.
inline __m128i load_pixel(const uint8_t* p) {
    return _mm_cvtsi32_si128(int(load_u32(p)));
}

// Baseline x86-64: abs as max(v, -v), select as and/andnot/or.
struct Sse2Ops {
    static __m128i abs16(__m128i v) {
        return _mm_max_epi16(v, _mm_sub_epi16(_mm_setzero_si128(), v));
    }
    static __m128i select(__m128i mask, __m128i if_set, __m128i if_clear) {
        return _mm_or_si128(_mm_and_si128(mask, if_set), _mm_andnot_si128(mask, if_clear));
    }
};

// A lone Sub row of RGBA: a prefix sum over four pixels per step.
void unfilter_sub_rgba(const uint8_t* src, uint8_t* dst, size_t width) {
    __m128i left = _mm_setzero_si128();
    size_t x = 0;
    for (; x + 4 <= width; x += 4) {
        __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + x * 4));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 4));
        v = _mm_add_epi8(v, _mm_slli_si128(v, 8));
        v = _mm_add_epi8(v, _mm_shuffle_epi32(left, 0xff));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + x * 4), v);
        left = v;
    }
    left = _mm_shuffle_epi32(left, 0xff);
    for (; x < width; ++x) {
        left = _mm_add_epi8(left, load_pixel(src + x * 4));
        store_u32(dst + x * 4, uint32_t(_mm_cvtsi128_si32(left)));
    }
}

void unfilter_none_up_rgba(bool add_above, const uint8_t* src, const uint8_t* prev, uint8_t* dst,
                           size_t width) {
    const size_t bytes = width * 4;
    if (!add_above) {
        std::memcpy(dst, src, bytes);
        return;
    }
    size_t i = 0;
    for (; i + 16 <= bytes; i += 16) {
        const __m128i s = _mm_loadu_si128(reinterpret_cast<const __m128i*>(src + i));
        const __m128i b = _mm_loadu_si128(reinterpret_cast<const __m128i*>(prev + i));
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + i), _mm_add_epi8(s, b));
    }
    for (; i < bytes; ++i) {
        dst[i] = static_cast<uint8_t>(src[i] + prev[i]);
    }
}

// RGB None/Up: widen four RGB pixels to RGBA with one byte shuffle.
__attribute__((target("ssse3"))) void unfilter_none_up_rgb_ssse3(bool add_above, const uint8_t* src,
                                                                 const uint8_t* prev, uint8_t* dst,
                                                                 size_t width) {
    const __m128i widen = _mm_setr_epi8(0, 1, 2, -1, 3, 4, 5, -1, 6, 7, 8, -1, 9, 10, 11, -1);
    const __m128i opaque = _mm_set1_epi32(int(0xff000000u));
    size_t x = 0;
    for (; x + 4 <= width; x += 4) {
        __m128i v =
            _mm_shuffle_epi8(_mm_loadu_si128(reinterpret_cast<const __m128i*>(src + x * 3)), widen);
        if (add_above) {
            v = _mm_add_epi8(v, _mm_loadu_si128(reinterpret_cast<const __m128i*>(prev + x * 4)));
        }
        _mm_storeu_si128(reinterpret_cast<__m128i*>(dst + x * 4), _mm_or_si128(v, opaque));
    }
    for (; x < width; ++x) {
        __m128i v = load_pixel(src + x * 3);
        if (add_above) {
            v = _mm_add_epi8(v, load_pixel(prev + x * 4));
        }
        store_u32(dst + x * 4, uint32_t(_mm_cvtsi128_si32(v)) | 0xff000000u);
    }
}

void unfilter_none_up_rgb_sse2(bool add_above, const uint8_t* src, const uint8_t* prev,
                               uint8_t* dst, size_t width) {
    for (size_t x = 0; x < width; ++x) {
        __m128i v = load_pixel(src + x * 3);
        if (add_above) {
            v = _mm_add_epi8(v, load_pixel(prev + x * 4));
        }
        store_u32(dst + x * 4, uint32_t(_mm_cvtsi128_si32(v)) | 0xff000000u);
    }
}

template <int kSrcBytes>
void unfilter_image_sse(const uint8_t* filtered, size_t width, size_t height,
                        const uint8_t* zero_row, uint8_t* out, const CpuFeatures& cpu) {
    constexpr size_t kMaxRows = kMaxRowsInFlight;
    const size_t scanline_bytes = 1 + width * kSrcBytes;
    const size_t row_bytes = width * 4;
    const uint8_t* prev = zero_row;
    size_t y = 0;
    while (y < height) {
        const uint8_t* scanline = filtered + y * scanline_bytes;
        uint8_t* dst = out + y * row_bytes;
        const uint8_t filter = scanline[0];
        if (!depends_on_left(filter)) {
            if constexpr (kSrcBytes == 4) {
                unfilter_none_up_rgba(filter == up, scanline + 1, prev, dst, width);
            } else if (cpu.ssse3) {
                unfilter_none_up_rgb_ssse3(filter == up, scanline + 1, prev, dst, width);
            } else {
                unfilter_none_up_rgb_sse2(filter == up, scanline + 1, prev, dst, width);
            }
            prev = dst;
            ++y;
            continue;
        }
        size_t rows = 1;
        while (rows < kMaxRows && y + rows < height &&
               depends_on_left(filtered[(y + rows) * scanline_bytes])) {
            ++rows;
        }
        const uint8_t* scanlines[kMaxRows];
        uint8_t* dsts[kMaxRows];
        for (size_t r = 0; r < rows; ++r) {
            scanlines[r] = scanline + r * scanline_bytes;
            dsts[r] = dst + r * row_bytes;
        }
        if (rows == 1 && kSrcBytes == 4 && filter == sub) {
            unfilter_sub_rgba(scanline + 1, dst, width);
        } else if (cpu.avx2) {
            unfilter_wavefront_avx2(kSrcBytes, rows, scanlines, prev, dsts, width);
        } else {
            unfilter_wavefront<Sse2Ops, kSrcBytes>(rows, scanlines, prev, dsts, width);
        }
        y += rows;
        prev = dsts[rows - 1];
    }
}

#endif  // LOUPE_UNFILTER_X86

}  // namespace

void unfilter_image_scalar(const uint8_t* filtered, size_t width, size_t height, int source_bytes,
                           const uint8_t* zero_row, uint8_t* out) {
    if (source_bytes == 4) {
        unfilter_image_scalar_impl<4>(filtered, width, height, zero_row, out);
    } else {
        unfilter_image_scalar_impl<3>(filtered, width, height, zero_row, out);
    }
}

void unfilter_image(const uint8_t* filtered, size_t width, size_t height, int source_bytes,
                    const uint8_t* zero_row, uint8_t* out, const CpuFeatures& cpu) {
#ifdef LOUPE_UNFILTER_X86
    if (source_bytes == 4) {
        unfilter_image_sse<4>(filtered, width, height, zero_row, out, cpu);
    } else {
        unfilter_image_sse<3>(filtered, width, height, zero_row, out, cpu);
    }
#else
    (void)cpu;
    unfilter_image_scalar(filtered, width, height, source_bytes, zero_row, out);
#endif
}

}  // namespace loupe::imagediff::png
