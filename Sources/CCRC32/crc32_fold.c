// CRC-32 by folding with carry-less multiplication: Gopal et al., "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Intel,
// 2009), in the bit-reflected form of the ISO 3309 polynomial 0x04C11DB7.
// Four 128-bit lanes are folded 512 bits forward at a time, then into one
// lane, then reduced to 32 bits with Barrett's method. The constants are
// powers of x modulo the polynomial (x^(4*128+32), x^(4*128-32), x^(128+32),
// x^(128-32), x^64), bit-reflected and shifted left by one, the polynomial
// itself, and Barrett's quotient floor(x^64 / P); the tests check every
// result against zlib's.
#include "crc32_fold.h"

#if defined(__x86_64__)
#include <cpuid.h>
#include <immintrin.h>

int crc32_fold_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int pclmulqdq = 1u << 1, sse41 = 1u << 19;
    return (ecx & pclmulqdq) && (ecx & sse41);
}

#define FOLD(lane, constants, next)                                          \
    do {                                                                    \
        __m128i low = _mm_clmulepi64_si128((lane), (constants), 0x00);      \
        __m128i high = _mm_clmulepi64_si128((lane), (constants), 0x11);     \
        (lane) = _mm_xor_si128(_mm_xor_si128(high, low), (next));           \
    } while (0)

__attribute__((target("pclmul,sse4.1")))
uint32_t crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length) {
    const __m128i k1k2 = _mm_set_epi64x(0x01c6e41596, 0x0154442bd4);
    const __m128i k3k4 = _mm_set_epi64x(0x00ccaa009e, 0x01751997d0);
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i polynomial = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);

    __m128i x1 = _mm_loadu_si128((const __m128i *)(bytes + 0));
    __m128i x2 = _mm_loadu_si128((const __m128i *)(bytes + 16));
    __m128i x3 = _mm_loadu_si128((const __m128i *)(bytes + 32));
    __m128i x4 = _mm_loadu_si128((const __m128i *)(bytes + 48));
    x1 = _mm_xor_si128(x1, _mm_cvtsi32_si128((int)~crc));
    bytes += 64;
    length -= 64;

    while (length >= 64) {
        FOLD(x1, k1k2, _mm_loadu_si128((const __m128i *)(bytes + 0)));
        FOLD(x2, k1k2, _mm_loadu_si128((const __m128i *)(bytes + 16)));
        FOLD(x3, k1k2, _mm_loadu_si128((const __m128i *)(bytes + 32)));
        FOLD(x4, k1k2, _mm_loadu_si128((const __m128i *)(bytes + 48)));
        bytes += 64;
        length -= 64;
    }

    // Four lanes into one, then the 16-byte blocks left.
    FOLD(x1, k3k4, x2);
    FOLD(x1, k3k4, x3);
    FOLD(x1, k3k4, x4);
    while (length >= 16) {
        FOLD(x1, k3k4, _mm_loadu_si128((const __m128i *)bytes));
        bytes += 16;
        length -= 16;
    }

    // 128 bits to 64, then Barrett's reduction to 32.
    __m128i x0 = _mm_clmulepi64_si128(x1, k3k4, 0x10);
    x1 = _mm_xor_si128(_mm_srli_si128(x1, 8), x0);
    x0 = _mm_srli_si128(x1, 4);
    x1 = _mm_and_si128(x1, low32);
    x1 = _mm_clmulepi64_si128(x1, k5, 0x00);
    x1 = _mm_xor_si128(x1, x0);

    x0 = _mm_and_si128(x1, low32);
    x0 = _mm_clmulepi64_si128(x0, polynomial, 0x10);
    x0 = _mm_and_si128(x0, low32);
    x0 = _mm_clmulepi64_si128(x0, polynomial, 0x00);
    x1 = _mm_xor_si128(x1, x0);
    return ~(uint32_t)_mm_extract_epi32(x1, 1);
}

#else

int crc32_fold_available(void) { return 0; }

uint32_t crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return crc;
}

#endif
