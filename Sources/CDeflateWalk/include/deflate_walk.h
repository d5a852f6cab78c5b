#ifndef DEFLATE_WALK_H
#define DEFLATE_WALK_H

#include <stddef.h>
#include <stdint.h>

/// What `deflate_walk` found wrong, or `DEFLATE_WALK_OK`.
typedef enum {
    DEFLATE_WALK_OK = 0,
    /// The data end before the final block does.
    DEFLATE_WALK_TRUNCATED = 1,
    /// A block header names block type 3, which RFC 1951 reserves.
    DEFLATE_WALK_RESERVED_BLOCK_TYPE = 2,
    /// A stored block's LEN is not the complement of its NLEN.
    DEFLATE_WALK_BAD_STORED_LENGTH = 3,
    /// A dynamic block's code lengths do not make usable Huffman codes.
    DEFLATE_WALK_BAD_CODE_LENGTHS = 4,
    /// Bits that are no code of the block's Huffman codes, or a code
    /// RFC 1951 reserves (length symbols 286-287, distances 30-31).
    DEFLATE_WALK_BAD_CODE = 5,
    /// A match reaches back before the start of the data.
    DEFLATE_WALK_BAD_DISTANCE = 6,
    /// Whole bytes follow the byte in which the final block ends.
    DEFLATE_WALK_TRAILING_DATA = 7,
} deflate_walk_status;

/// Where a raw deflate stream's final block lies, in bits from the start of
/// the data (bit 0 is the least significant bit of the first byte).
typedef struct {
    /// The first bit of the final block's header: its BFINAL bit.
    uint64_t final_block_bit;
    /// The bit just after the final block's end-of-block code (or its last
    /// stored byte).
    uint64_t end_bit;
    /// How many bytes the stream decompresses to.
    uint64_t decompressed_length;
} deflate_walk_result;

/// Decodes the raw deflate stream (RFC 1951) in `data[0..<length]` without
/// writing its output, and reports where its final block starts and ends.
///
/// The stream must be complete, must not refer back before its own start
/// (no preset dictionary), and must end in the last byte of `data`.
/// Reads no byte outside `data`, whatever the bytes are, and returns after
/// at most a fixed number of steps per bit of input. `result` is written only
/// when the walk succeeds.
deflate_walk_status deflate_walk(const uint8_t *data, size_t length, deflate_walk_result *result);

#endif
