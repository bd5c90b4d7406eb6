// The unfilter wavefront compiled with -mavx2 (see png_unfilter_serial.hpp). Chosen at run
// time, only on CPUs with AVX2.

#include "png_unfilter_serial.hpp"

#if defined(__x86_64__) || defined(__i386__)
#if !defined(__AVX2__)
#error "png_unfilter_avx2.cpp must be compiled with -mavx2 (see sources.cmake)"
#endif

namespace loupe::imagediff::png {
namespace {

struct Avx2Ops {
    static __m128i abs16(__m128i v) { return _mm_abs_epi16(v); }
    static __m128i select(__m128i mask, __m128i if_set, __m128i if_clear) {
        return _mm_blendv_epi8(if_clear, if_set, mask);
    }
};

}  // namespace

void unfilter_wavefront_avx2(int source_bytes, size_t rows, const uint8_t* const* scanlines,
                             const uint8_t* prev, uint8_t* const* dst, size_t width) {
    if (source_bytes == 4) {
        unfilter_wavefront<Avx2Ops, 4>(rows, scanlines, prev, dst, width);
    } else {
        unfilter_wavefront<Avx2Ops, 3>(rows, scanlines, prev, dst, width);
    }
}

}  // namespace loupe::imagediff::png

#endif  // x86
