#ifndef HTTP_BODY_CRC32_FOLD_H
#define HTTP_BODY_CRC32_FOLD_H

#include <stddef.h>
#include <stdint.h>

/// Whether this processor has carry-less multiplication (x86-64's PCLMULQDQ
/// with SSE4.1), which crc32_fold needs. 0 elsewhere.
int crc32_fold_available(void);

/// The CRC-32 of ISO 3309 (zlib's, gzip's, S3's x-amz-checksum-crc32) of
/// `length` bytes, continuing from `crc` as zlib's crc32() does (0 to begin),
/// computed by folding 64 bytes at a time with carry-less multiplication
/// (128 bytes at a time where the processor has VPCLMULQDQ and AVX2).
/// `length` must be a multiple of 16 and at least 64; call only when
/// crc32_fold_available() says so.
uint32_t crc32_fold(uint32_t crc, const unsigned char *bytes, size_t length);

#endif
