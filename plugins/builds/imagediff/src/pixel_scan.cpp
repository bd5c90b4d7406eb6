#include "pixel_scan.hpp"

#include <bit>
#include <cstring>

#if defined(__x86_64__) || defined(__i386__)
#include <immintrin.h>
#define LOUPE_SCAN_X86 1
#endif

namespace loupe::imagediff {
namespace {

inline uint32_t load_pixel(const uint8_t* p) {
    uint32_t value;
    std::memcpy(&value, p, sizeof value);
    return value;
}

size_t find_first_difference_scalar(const uint8_t* a, const uint8_t* b, size_t from, size_t count) {
    for (size_t i = from; i < count; ++i) {
        if (load_pixel(a + i * 4) != load_pixel(b + i * 4)) {
            return i;
        }
    }
    return count;
}

size_t find_first_nonzero_scalar(const uint8_t* pixels, size_t from, size_t count) {
    for (size_t i = from; i < count; ++i) {
        if (load_pixel(pixels + i * 4) != 0) {
            return i;
        }
    }
    return count;
}

#ifdef LOUPE_SCAN_X86

// 16 pixels (two 32-byte vectors per image) per step.
__attribute__((target("avx2"))) size_t find_first_difference_avx2(const uint8_t* a,
                                                                  const uint8_t* b, size_t count) {
    size_t i = 0;
    for (; i + 16 <= count; i += 16) {
        const auto* pa = reinterpret_cast<const __m256i*>(a + i * 4);
        const auto* pb = reinterpret_cast<const __m256i*>(b + i * 4);
        const __m256i eq0 = _mm256_cmpeq_epi32(_mm256_loadu_si256(pa), _mm256_loadu_si256(pb));
        const __m256i eq1 =
            _mm256_cmpeq_epi32(_mm256_loadu_si256(pa + 1), _mm256_loadu_si256(pb + 1));
        const auto equal = static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(eq0))) |
                           static_cast<uint32_t>(_mm256_movemask_ps(_mm256_castsi256_ps(eq1))) << 8;
        if (equal != 0xffff) {
            return i + static_cast<size_t>(std::countr_one(equal));
        }
    }
    return find_first_difference_scalar(a, b, i, count);
}

size_t find_first_difference_sse2(const uint8_t* a, const uint8_t* b, size_t count) {
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const auto* pa = reinterpret_cast<const __m128i*>(a + i * 4);
        const auto* pb = reinterpret_cast<const __m128i*>(b + i * 4);
        const __m128i eq0 = _mm_cmpeq_epi32(_mm_loadu_si128(pa), _mm_loadu_si128(pb));
        const __m128i eq1 = _mm_cmpeq_epi32(_mm_loadu_si128(pa + 1), _mm_loadu_si128(pb + 1));
        const auto equal = static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(eq0))) |
                           static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(eq1))) << 4;
        if (equal != 0xff) {
            return i + static_cast<size_t>(std::countr_one(equal));
        }
    }
    return find_first_difference_scalar(a, b, i, count);
}

__attribute__((target("avx2"))) size_t find_first_nonzero_avx2(const uint8_t* pixels,
                                                               size_t count) {
    const __m256i zero = _mm256_setzero_si256();
    size_t i = 0;
    for (; i + 8 <= count; i += 8) {
        const __m256i v = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(pixels + i * 4));
        const auto is_zero = static_cast<uint32_t>(
            _mm256_movemask_ps(_mm256_castsi256_ps(_mm256_cmpeq_epi32(v, zero))));
        if (is_zero != 0xff) {
            return i + static_cast<size_t>(std::countr_one(is_zero));
        }
    }
    return find_first_nonzero_scalar(pixels, i, count);
}

size_t find_first_nonzero_sse2(const uint8_t* pixels, size_t count) {
    const __m128i zero = _mm_setzero_si128();
    size_t i = 0;
    for (; i + 4 <= count; i += 4) {
        const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i*>(pixels + i * 4));
        const auto is_zero =
            static_cast<uint32_t>(_mm_movemask_ps(_mm_castsi128_ps(_mm_cmpeq_epi32(v, zero))));
        if (is_zero != 0xf) {
            return i + static_cast<size_t>(std::countr_one(is_zero));
        }
    }
    return find_first_nonzero_scalar(pixels, i, count);
}

#endif  // LOUPE_SCAN_X86

}  // namespace

size_t find_first_difference(const uint8_t* a, const uint8_t* b, size_t count,
                             const CpuFeatures& cpu) {
#ifdef LOUPE_SCAN_X86
    return cpu.avx2 ? find_first_difference_avx2(a, b, count)
                    : find_first_difference_sse2(a, b, count);
#else
    (void)cpu;
    return find_first_difference_scalar(a, b, 0, count);
#endif
}

size_t find_first_nonzero(const uint8_t* pixels, size_t count, const CpuFeatures& cpu) {
#ifdef LOUPE_SCAN_X86
    return cpu.avx2 ? find_first_nonzero_avx2(pixels, count)
                    : find_first_nonzero_sse2(pixels, count);
#else
    (void)cpu;
    return find_first_nonzero_scalar(pixels, 0, count);
#endif
}

}  // namespace loupe::imagediff
