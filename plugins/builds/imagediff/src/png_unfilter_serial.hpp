#pragma once
// The Sub/Average/Paeth wavefront kernel (see png_unfilter.hpp), written once and compiled
// twice: in png_unfilter.cpp for baseline SSE2, and in png_unfilter_avx2.cpp, which is built
// with -mavx2 and can use pabsw and pblendvb (about 17% faster on Paeth rows). Everything
// here has internal linkage, so no code built for AVX2 can be picked by the linker for the
// baseline path. Include only from those two files.

#if defined(__x86_64__) || defined(__i386__)

#include <immintrin.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "png_unfilter.hpp"

namespace loupe::imagediff::png {
namespace {  // NOLINT(google-build-namespaces): internal linkage is the point, see above

inline __m128i load_pixel_16(const uint8_t* p) {
    uint32_t value;
    std::memcpy(&value, p, sizeof value);
    return _mm_unpacklo_epi8(_mm_cvtsi32_si128(static_cast<int>(value)), _mm_setzero_si128());
}

// For RGB sources the loaded fourth byte belongs to the next pixel: it only ever reaches the
// alpha lane, which `opaque` (0xff000000) then overwrites.
inline void store_pixel_16(uint8_t* p, __m128i v, uint32_t opaque) {
    const uint32_t value =
        static_cast<uint32_t>(_mm_cvtsi128_si32(_mm_packus_epi16(v, v))) | opaque;
    std::memcpy(p, &value, sizeof value);
}

// The state of one Sub, Average or Paeth row, in 16-bit lanes: a = left, c = above-left.
// The switch is taken the same way for a whole row, so it predicts perfectly. `Ops` supplies
// abs16(v) and select(mask, if_set, if_clear) for the instruction set at hand.
template <class Ops>
struct SerialLane {
    uint8_t filter = sub;
    __m128i a = _mm_setzero_si128();
    __m128i c = _mm_setzero_si128();

    __m128i step(__m128i b, __m128i filtered) {
        const __m128i low_byte = _mm_set1_epi16(0xff);
        switch (filter) {
            case sub:
                a = _mm_and_si128(_mm_add_epi16(a, filtered), low_byte);
                break;
            case average: {
                const __m128i mean = _mm_srli_epi16(_mm_add_epi16(a, b), 1);
                a = _mm_and_si128(_mm_add_epi16(mean, filtered), low_byte);
                break;
            }
            default: {
                // p - a = b - c and p - b = a - c; ties favour a, then b, then c.
                const __m128i b_minus_c = _mm_sub_epi16(b, c);
                const __m128i a_minus_c = _mm_sub_epi16(a, c);
                const __m128i pa = Ops::abs16(b_minus_c);
                const __m128i pb = Ops::abs16(a_minus_c);
                const __m128i pc = Ops::abs16(_mm_add_epi16(a_minus_c, b_minus_c));
                const __m128i smallest = _mm_min_epi16(pc, _mm_min_epi16(pa, pb));
                const __m128i nearest =
                    Ops::select(_mm_cmpeq_epi16(smallest, pa), a,
                                Ops::select(_mm_cmpeq_epi16(smallest, pb), b, c));
                a = _mm_and_si128(_mm_add_epi16(nearest, filtered), low_byte);
                c = b;
                break;
            }
        }
        return a;
    }
};

// kRows consecutive Sub/Average/Paeth rows as a wavefront: at step t, row r does pixel t - r,
// after row r - 1 has finished pixels t - r + 1 and t - r (its b and c).
template <class Ops, int kSrcBytes, int kRows>
void unfilter_wavefront(const uint8_t* const* scanlines, const uint8_t* prev, uint8_t* const* dst,
                        size_t width) {
    constexpr uint32_t kOpaque = kSrcBytes == 3 ? 0xff000000u : 0;
    SerialLane<Ops> lanes[kRows];
    for (int r = 0; r < kRows; ++r) {
        lanes[r].filter = scanlines[r][0];
    }
    for (size_t t = 0; t < width + kRows - 1; ++t) {
        for (int r = 0; r < kRows; ++r) {
            const size_t x = t - r;  // wraps past width while row r has not started
            if (x < width) {
                const uint8_t* above = r == 0 ? prev : dst[r - 1];
                const __m128i pixel = lanes[r].step(
                    load_pixel_16(above + x * 4), load_pixel_16(scanlines[r] + 1 + x * kSrcBytes));
                store_pixel_16(dst[r] + x * 4, pixel, kOpaque);
            }
        }
    }
}

template <class Ops, int kSrcBytes>
void unfilter_wavefront(size_t rows, const uint8_t* const* scanlines, const uint8_t* prev,
                        uint8_t* const* dst, size_t width) {
    switch (rows) {
        case 1:
            unfilter_wavefront<Ops, kSrcBytes, 1>(scanlines, prev, dst, width);
            break;
        case 2:
            unfilter_wavefront<Ops, kSrcBytes, 2>(scanlines, prev, dst, width);
            break;
        case 3:
            unfilter_wavefront<Ops, kSrcBytes, 3>(scanlines, prev, dst, width);
            break;
        default:
            unfilter_wavefront<Ops, kSrcBytes, 4>(scanlines, prev, dst, width);
            break;
    }
}

}  // namespace

/// The wavefront built for AVX2 (png_unfilter_avx2.cpp); call only when the CPU has AVX2.
void unfilter_wavefront_avx2(int source_bytes, size_t rows, const uint8_t* const* scanlines,
                             const uint8_t* prev, uint8_t* const* dst, size_t width);

}  // namespace loupe::imagediff::png

#endif  // x86
