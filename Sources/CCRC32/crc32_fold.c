// CRC-32 by folding with carry-less multiplication: Gopal et al., "Fast CRC
// Computation for Generic Polynomials Using PCLMULQDQ Instruction" (Intel,
// 2009), in the bit-reflected form of the ISO 3309 polynomial 0x04C11DB7.
// Lanes of 128 bits are folded forward (eight lanes 1024 bits at a time
// where the processor has VPCLMULQDQ, four lanes 512 bits otherwise), then
// into one lane, then reduced to 32 bits with Barrett's method. The
// constants are powers of x modulo the polynomial (x^(D+32) and x^(D-32) for
// a fold over D bits, and x^64), bit-reflected and shifted left by one, the
// polynomial itself, and Barrett's quotient floor(x^64 / P); the tests check
// every result against the definition's.
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

// Whether the processor folds two lanes per instruction (VPCLMULQDQ on
// 256-bit registers, with AVX2) and the system saves those registers.
static int wide_fold_available(void) {
    unsigned int eax, ebx, ecx, edx;
    if (!__get_cpuid(1, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int osxsave = 1u << 27, avx = 1u << 28;
    if (!(ecx & osxsave) || !(ecx & avx)) return 0;
    unsigned int xcr0_low, xcr0_high;
    __asm__("xgetbv" : "=a"(xcr0_low), "=d"(xcr0_high) : "c"(0));
    if ((xcr0_low & 6) != 6) return 0;  // SSE and AVX state
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return 0;
    const unsigned int avx2 = 1u << 5, vpclmulqdq = 1u << 10;
    return (ebx & avx2) && (ecx & vpclmulqdq);
}

#define FOLD(lane, constants, next)                                          \
    do {                                                                    \
        __m128i low = _mm_clmulepi64_si128((lane), (constants), 0x00);      \
        __m128i high = _mm_clmulepi64_si128((lane), (constants), 0x11);     \
        (lane) = _mm_xor_si128(_mm_xor_si128(high, low), (next));           \
    } while (0)

// The same fold on both 128-bit halves of a 256-bit register at once.
#define FOLD_WIDE(lanes, constants, next)                                    \
    do {                                                                    \
        __m256i low = _mm256_clmulepi64_epi128((lanes), (constants), 0x00); \
        __m256i high = _mm256_clmulepi64_epi128((lanes), (constants), 0x11); \
        (lanes) = _mm256_xor_si256(_mm256_xor_si256(high, low), (next));    \
    } while (0)

#define K1K2 _mm_set_epi64x(0x01c6e41596, 0x0154442bd4)  // x^(512-32), x^(512+32)
#define K3K4 _mm_set_epi64x(0x00ccaa009e, 0x01751997d0)  // x^(128-32), x^(128+32)

// One lane's 128 bits, with the 16-byte blocks left folded in, reduced to
// the CRC: to 64 bits, then by Barrett's method to 32.
__attribute__((target("pclmul,sse4.1")))
static uint32_t reduce(__m128i x1, const unsigned char *bytes, size_t length) {
    const __m128i k3k4 = K3K4;
    const __m128i k5 = _mm_set_epi64x(0, 0x0163cd6124);
    const __m128i polynomial = _mm_set_epi64x(0x01f7011641, 0x01db710641);
    const __m128i low32 = _mm_setr_epi32(~0, 0, ~0, 0);

    while (length >= 16) {
        FOLD(x1, k3k4, _mm_loadu_si128((const __m128i *)bytes));
        bytes += 16;
        length -= 16;
    }

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

// Eight lanes in four 256-bit registers, folded 1024 bits forward at a time:
// twice the bytes per instruction of the four-lane loop below, on
// processors with VPCLMULQDQ (AMD Zen 3 and later, Intel Ice Lake and later).
// `length` is a multiple of 16 and at least 128.
__attribute__((target("vpclmulqdq,avx2,pclmul,sse4.1")))
static uint32_t fold_wide(uint32_t crc, const unsigned char *bytes, size_t length) {
    // x^(1024-32) and x^(1024+32), in each half.
    const __m256i k = _mm256_set_epi64x(0x014a7fe880, 0x01e88ef372, 0x014a7fe880, 0x01e88ef372);
    const __m128i k3k4 = K3K4;

    __m256i y0 = _mm256_loadu_si256((const __m256i *)(bytes + 0));
    __m256i y1 = _mm256_loadu_si256((const __m256i *)(bytes + 32));
    __m256i y2 = _mm256_loadu_si256((const __m256i *)(bytes + 64));
    __m256i y3 = _mm256_loadu_si256((const __m256i *)(bytes + 96));
    y0 = _mm256_xor_si256(y0, _mm256_zextsi128_si256(_mm_cvtsi32_si128((int)~crc)));
    bytes += 128;
    length -= 128;

    while (length >= 128) {
        FOLD_WIDE(y0, k, _mm256_loadu_si256((const __m256i *)(bytes + 0)));
        FOLD_WIDE(y1, k, _mm256_loadu_si256((const __m256i *)(bytes + 32)));
        FOLD_WIDE(y2, k, _mm256_loadu_si256((const __m256i *)(bytes + 64)));
        FOLD_WIDE(y3, k, _mm256_loadu_si256((const __m256i *)(bytes + 96)));
        bytes += 128;
        length -= 128;
    }

    // Eight lanes into one, in the order of their bytes.
    __m128i x1 = _mm256_castsi256_si128(y0);
    FOLD(x1, k3k4, _mm256_extracti128_si256(y0, 1));
    FOLD(x1, k3k4, _mm256_castsi256_si128(y1));
    FOLD(x1, k3k4, _mm256_extracti128_si256(y1, 1));
    FOLD(x1, k3k4, _mm256_castsi256_si128(y2));
    FOLD(x1, k3k4, _mm256_extracti128_si256(y2, 1));
    FOLD(x1, k3k4, _mm256_castsi256_si128(y3));
    FOLD(x1, k3k4, _mm256_extracti128_si256(y3, 1));
    return reduce(x1, bytes, length);
}

// Four 128-bit lanes folded 512 bits forward at a time. `length` is a
// multiple of 16 and at least 64.
__attribute__((target("pclmul,sse4.1")))
static uint32_t fold_narrow(uint32_t crc, const unsigned char *bytes, size_t length) {
    const __m128i k1k2 = K1K2;
    const __m128i k3k4 = K3K4;

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

    FOLD(x1, k3k4, x2);
    FOLD(x1, k3k4, x3);
    FOLD(x1, k3k4, x4);
    return reduce(x1, bytes, length);
}

uint32_t crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length) {
    // Asked of the processor once (threads racing to ask get the same answer).
    static int wide = -1;
    int known = __atomic_load_n(&wide, __ATOMIC_RELAXED);
    if (known < 0) {
        known = wide_fold_available();
        __atomic_store_n(&wide, known, __ATOMIC_RELAXED);
    }
    if (known && length >= 256) return fold_wide(crc, bytes, length);
    return fold_narrow(crc, bytes, length);
}

#else

int crc32_fold_available(void) { return 0; }

uint32_t crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length) {
    (void)bytes;
    (void)length;
    return crc;
}

#endif
