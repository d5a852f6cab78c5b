// A raw deflate stream (RFC 1951) decoded without its output: each symbol's
// code and extra bits are read and skipped, so the walk costs a small
// fraction of inflating. Huffman codes are decoded by a 10-bit table for the
// short codes and canonically, bit by bit, for the rare longer ones.

#include "deflate_walk.h"

#include <string.h>

enum { FAST_BITS = 10, MAX_CODE_BITS = 15, MAX_LITLEN = 288, MAX_DIST = 32 };

/// The bits not yet consumed, least significant first, over data[0..<length].
/// Past the end, zero bytes are supplied and counted in `overrun`; the
/// position then lies past the data, which the walk checks at every block.
typedef struct {
    const uint8_t *start;
    const uint8_t *next;
    const uint8_t *end;
    uint64_t buffer;
    unsigned count;
    size_t overrun;
} bit_reader;

/// Makes at least 56 bits available. Bits above `count` in `buffer` are
/// either zero or the stream's own next bits, so loading them again is harmless.
static inline void refill(bit_reader *bits) {
    if (bits->end - bits->next >= 8) {
        uint64_t word;
        memcpy(&word, bits->next, 8);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
        word = __builtin_bswap64(word);
#endif
        bits->buffer |= word << bits->count;
        bits->next += (63 - bits->count) >> 3;
        bits->count |= 56;
        return;
    }
    while (bits->count <= 56) {
        if (bits->next < bits->end) {
            bits->buffer |= (uint64_t)*bits->next++ << bits->count;
        } else {
            bits->overrun += 1;
        }
        bits->count += 8;
    }
}

static inline uint64_t peek(const bit_reader *bits, unsigned n) {
    return bits->buffer & ((UINT64_C(1) << n) - 1);
}

static inline void consume(bit_reader *bits, unsigned n) {
    bits->buffer >>= n;
    bits->count -= n;
}

static inline uint32_t take(bit_reader *bits, unsigned n) {
    uint32_t value = (uint32_t)peek(bits, n);
    consume(bits, n);
    return value;
}

/// The position in bits; beyond `length * 8` once zeros past the end were consumed.
static inline uint64_t position(const bit_reader *bits) {
    return ((uint64_t)(bits->next - bits->start) + bits->overrun) * 8 - bits->count;
}

/// One canonical Huffman code: `fast` maps the next FAST_BITS bits to
/// (symbol << 4 | length) for codes of at most FAST_BITS bits, 0 otherwise;
/// `count` and `symbol` decode any code (puff.c's scheme).
typedef struct {
    uint16_t fast[1 << FAST_BITS];
    uint16_t count[MAX_CODE_BITS + 1];
    uint16_t symbol[MAX_LITLEN];
} huffman;

static unsigned reversed(unsigned code, unsigned length) {
    unsigned result = 0;
    for (unsigned i = 0; i < length; i++) {
        result = (result << 1) | (code & 1);
        code >>= 1;
    }
    return result;
}

/// Builds the code of `lengths[0..<n]`. Returns -1 when it is over-subscribed,
/// otherwise how many codes are left unused (0 when it is complete).
static int build(huffman *code, const uint8_t *lengths, unsigned n) {
    memset(code->count, 0, sizeof code->count);
    for (unsigned s = 0; s < n; s++) code->count[lengths[s]] += 1;
    code->count[0] = 0;
    int left = 1;
    for (unsigned length = 1; length <= MAX_CODE_BITS; length++) {
        left <<= 1;
        left -= code->count[length];
        if (left < 0) return -1;
    }
    uint16_t offsets[MAX_CODE_BITS + 2];
    offsets[1] = 0;
    for (unsigned length = 1; length <= MAX_CODE_BITS; length++) {
        offsets[length + 1] = offsets[length] + code->count[length];
    }
    for (unsigned s = 0; s < n; s++) {
        if (lengths[s] != 0) code->symbol[offsets[lengths[s]]++] = (uint16_t)s;
    }
    memset(code->fast, 0, sizeof code->fast);
    unsigned next = 0, index = 0;
    for (unsigned length = 1; length <= FAST_BITS; length++) {
        for (unsigned k = 0; k < code->count[length]; k++) {
            uint16_t entry = (uint16_t)(code->symbol[index++] << 4 | length);
            for (unsigned fill = reversed(next++, length); fill < (1u << FAST_BITS); fill += 1u << length) {
                code->fast[fill] = entry;
            }
        }
        next <<= 1;
    }
    return left;
}

/// Whether zlib would accept a literal/length or distance code built with
/// `left` codes unused: complete, a single code of one bit, or no code at all.
static int usable(const huffman *code, int left) {
    if (left == 0) return 1;
    if (left < 0) return 0;
    unsigned codes = 0;
    for (unsigned length = 1; length <= MAX_CODE_BITS; length++) codes += code->count[length];
    return codes == 0 || (codes == 1 && code->count[1] == 1);
}

/// The next symbol of `code`, or -1 if the next bits are none of its codes.
/// Needs MAX_CODE_BITS bits available.
static inline int decode(bit_reader *bits, const huffman *code) {
    unsigned entry = code->fast[peek(bits, FAST_BITS)];
    if (entry != 0) {
        consume(bits, entry & 15);
        return (int)(entry >> 4);
    }
    uint64_t stream = bits->buffer;
    int value = 0, first = 0, index = 0;
    for (unsigned length = 1; length <= MAX_CODE_BITS; length++) {
        value |= (int)(stream & 1);
        stream >>= 1;
        int count = code->count[length];
        if (value - count < first) {
            consume(bits, length);
            return code->symbol[index + (value - first)];
        }
        index += count;
        first = (first + count) << 1;
        value <<= 1;
    }
    return -1;
}

static const uint16_t length_base[29] = {
    3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31,
    35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t length_extra[29] = {
    0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2,
    3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t distance_base[30] = {
    1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193,
    257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t distance_extra[30] = {
    0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6,
    7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/// Reading past the end by this many zero bytes means the data are truncated:
/// one refill supplies at most 8, and a symbol needs at most 48 bits.
enum { OVERRUN_LIMIT = 16 };

/// Skips one Huffman-coded block's symbols up to and including end-of-block.
static deflate_walk_status skip_symbols(bit_reader *bits, const huffman *litlen, const huffman *distance, uint64_t *produced) {
    for (;;) {
        refill(bits);
        if (bits->overrun > OVERRUN_LIMIT) return DEFLATE_WALK_TRUNCATED;
        int symbol = decode(bits, litlen);
        if (symbol < 0) return DEFLATE_WALK_BAD_CODE;
        if (symbol < 256) {
            *produced += 1;
            continue;
        }
        if (symbol == 256) return DEFLATE_WALK_OK;
        symbol -= 257;
        if (symbol >= 29) return DEFLATE_WALK_BAD_CODE;
        uint32_t length = length_base[symbol] + take(bits, length_extra[symbol]);
        int code = decode(bits, distance);
        if (code < 0 || code >= 30) return DEFLATE_WALK_BAD_CODE;
        uint32_t reach = distance_base[code] + take(bits, distance_extra[code]);
        if (reach > *produced) return DEFLATE_WALK_BAD_DISTANCE;
        *produced += length;
    }
}

/// Reads a dynamic block's code lengths (RFC 1951, section 3.2.7) into the two codes.
static deflate_walk_status read_dynamic_codes(bit_reader *bits, huffman *litlen, huffman *distance) {
    static const uint8_t order[19] = {16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15};
    refill(bits);
    unsigned literal_count = take(bits, 5) + 257;
    unsigned distance_count = take(bits, 5) + 1;
    unsigned length_code_count = take(bits, 4) + 4;
    if (literal_count > 286 || distance_count > 30) return DEFLATE_WALK_BAD_CODE_LENGTHS;
    uint8_t lengths[MAX_LITLEN + MAX_DIST] = {0};
    for (unsigned i = 0; i < length_code_count; i++) {
        refill(bits);
        lengths[order[i]] = (uint8_t)take(bits, 3);
    }
    huffman length_code;
    if (build(&length_code, lengths, 19) != 0) return DEFLATE_WALK_BAD_CODE_LENGTHS;
    unsigned total = literal_count + distance_count;
    for (unsigned index = 0; index < total;) {
        refill(bits);
        if (bits->overrun > OVERRUN_LIMIT) return DEFLATE_WALK_TRUNCATED;
        int symbol = decode(bits, &length_code);
        if (symbol < 0) return DEFLATE_WALK_BAD_CODE_LENGTHS;
        if (symbol < 16) {
            lengths[index++] = (uint8_t)symbol;
            continue;
        }
        uint8_t repeated = 0;
        unsigned times;
        if (symbol == 16) {
            if (index == 0) return DEFLATE_WALK_BAD_CODE_LENGTHS;
            repeated = lengths[index - 1];
            times = 3 + take(bits, 2);
        } else if (symbol == 17) {
            times = 3 + take(bits, 3);
        } else {
            times = 11 + take(bits, 7);
        }
        if (index + times > total) return DEFLATE_WALK_BAD_CODE_LENGTHS;
        while (times-- > 0) lengths[index++] = repeated;
    }
    if (lengths[256] == 0) return DEFLATE_WALK_BAD_CODE_LENGTHS;  // no end-of-block code
    if (!usable(litlen, build(litlen, lengths, literal_count))) return DEFLATE_WALK_BAD_CODE_LENGTHS;
    if (!usable(distance, build(distance, lengths + literal_count, distance_count))) return DEFLATE_WALK_BAD_CODE_LENGTHS;
    return DEFLATE_WALK_OK;
}

static void build_fixed(huffman *litlen, huffman *distance) {
    uint8_t lengths[MAX_LITLEN];
    unsigned s = 0;
    for (; s < 144; s++) lengths[s] = 8;
    for (; s < 256; s++) lengths[s] = 9;
    for (; s < 280; s++) lengths[s] = 7;
    for (; s < 288; s++) lengths[s] = 8;
    build(litlen, lengths, 288);
    for (s = 0; s < 30; s++) lengths[s] = 5;
    build(distance, lengths, 30);
}

/// Skips a stored block's LEN, NLEN and bytes, from just after its header.
static deflate_walk_status skip_stored(bit_reader *bits, uint64_t *produced) {
    consume(bits, bits->count & 7);  // to the byte boundary
    refill(bits);
    uint32_t length = take(bits, 16);
    uint32_t complement = take(bits, 16);
    if (length != (~complement & 0xFFFF)) return DEFLATE_WALK_BAD_STORED_LENGTH;
    uint64_t at = position(bits);
    size_t size = (size_t)(bits->end - bits->start);
    if (at > (uint64_t)size * 8 || length > size - at / 8) return DEFLATE_WALK_TRUNCATED;
    bits->next = bits->start + at / 8 + length;
    bits->buffer = 0;
    bits->count = 0;
    bits->overrun = 0;
    *produced += length;
    return DEFLATE_WALK_OK;
}

deflate_walk_status deflate_walk(const uint8_t *data, size_t length, deflate_walk_result *result) {
    bit_reader bits = {data, data, data + length, 0, 0, 0};
    huffman litlen, distance;
    uint64_t produced = 0;
    for (;;) {
        uint64_t header = position(&bits);
        refill(&bits);
        unsigned final = take(&bits, 1);
        unsigned type = take(&bits, 2);
        deflate_walk_status status;
        if (type == 0) {
            status = skip_stored(&bits, &produced);
        } else if (type == 1) {
            build_fixed(&litlen, &distance);
            status = skip_symbols(&bits, &litlen, &distance, &produced);
        } else if (type == 2) {
            status = read_dynamic_codes(&bits, &litlen, &distance);
            if (status == DEFLATE_WALK_OK) status = skip_symbols(&bits, &litlen, &distance, &produced);
        } else {
            status = DEFLATE_WALK_RESERVED_BLOCK_TYPE;
        }
        if (status != DEFLATE_WALK_OK) return status;
        uint64_t end = position(&bits);
        if (end > (uint64_t)length * 8) return DEFLATE_WALK_TRUNCATED;
        if (final) {
            if ((end + 7) / 8 != length) return DEFLATE_WALK_TRAILING_DATA;
            result->final_block_bit = header;
            result->end_bit = end;
            result->decompressed_length = produced;
            return DEFLATE_WALK_OK;
        }
    }
}
