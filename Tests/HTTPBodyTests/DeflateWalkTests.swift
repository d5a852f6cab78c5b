#if canImport(CLibDeflate)
import CDeflateWalk
import CLibDeflate
import CZlib
import Testing

/// The deflate walker (CDeflateWalk) against zlib's inflate, which reports
/// block boundaries with `Z_BLOCK` (as zlib's examples/gzjoin.c reads them):
/// libdeflate's data at every level must walk to the same final block and
/// end, and damaged data must be an error, never a crash.
@Suite struct DeflateWalkTests {
    /// libdeflate's raw deflate data for `input` at `level` (1-12).
    static func libdeflate(_ input: [UInt8], level: Int32) throws -> [UInt8] {
        let compressor = try #require(libdeflate_alloc_compressor(level))
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_deflate_compress_bound(compressor, input.count))
        let count = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { libdeflate_deflate_compress(compressor, source.baseAddress, source.count, $0.baseAddress, $0.count) }
        }
        try #require(count > 0)
        return Array(output[..<count])
    }

    /// Where zlib finds the final block's header and end, and how many bytes it inflates to.
    static func zlibBoundaries(_ data: [UInt8], inputLength: Int) throws -> deflate_walk_result {
        var stream = z_stream()
        try #require(czlib_inflateInit2(&stream, -15) == Z_OK)
        defer { inflateEnd(&stream) }
        var input = data
        var output = [UInt8](repeating: 0, count: inputLength + 1)
        var boundaries = deflate_walk_result()
        var status = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                while status == Z_OK {
                    status = inflate(&stream, Z_BLOCK)
                    // 128: stopped at a block boundary; 64: the block just ended or begun is the last.
                    guard stream.data_type & 128 != 0 else { continue }
                    let bit = UInt64(source.count - Int(stream.avail_in)) * 8 - UInt64(stream.data_type & 7)
                    if stream.data_type & 64 == 0 { boundaries.final_block_bit = bit } else { boundaries.end_bit = bit }
                }
            }
        }
        try #require(status == Z_STREAM_END, "zlib inflate ended with \(status)")
        boundaries.decompressed_length = UInt64(stream.total_out)
        return boundaries
    }

    static func walk(_ data: [UInt8]) -> (status: deflate_walk_status, result: deflate_walk_result) {
        var result = deflate_walk_result()
        let status = data.withUnsafeBufferPointer { deflate_walk($0.baseAddress, $0.count, &result) }
        return (status, result)
    }

    /// Inputs that make every kind of block: text (dynamic Huffman, long
    /// matches), noise (stored), one repeated byte (the longest matches),
    /// a few bytes (fixed Huffman), nothing, and mixes spanning several blocks.
    static let inputs: [(name: String, bytes: [UInt8])] = {
        var generator = SplitMix(seed: 7)
        let noise = (0..<70_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let text = Array((0..<3_000).map { "line \($0 * 7919 % 1000): the quick brown fox jumps over the lazy dog\n" }.joined().utf8)
        let skewed = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: generator.next() % 7 == 0 ? generator.next() : 0x61) }
        return [
            ("empty", []), ("one byte", [0x41]), ("short", Array("hello, hello, hello".utf8)),
            ("text", text), ("noise", noise), ("repeated", [UInt8](repeating: 0, count: 300_000)),
            ("skewed", skewed), ("mixed", text + noise + text + skewed),
        ]
    }()

    @Test(arguments: Array(1...12))
    func findsTheFinalBlockWhereZlibDoes(level: Int32) throws {
        for (name, input) in Self.inputs {
            let data = try Self.libdeflate(input, level: level)
            let (status, walked) = Self.walk(data)
            try #require(status == DEFLATE_WALK_OK, "\(name) at level \(level): walk status \(status.rawValue)")
            let expected = try Self.zlibBoundaries(data, inputLength: input.count)
            #expect(walked.final_block_bit == expected.final_block_bit, "\(name) at level \(level)")
            #expect(walked.end_bit == expected.end_bit, "\(name) at level \(level)")
            #expect(walked.decompressed_length == UInt64(input.count), "\(name) at level \(level)")
        }
    }

    @Test func truncatedDataAreAnError() throws {
        let data = try Self.libdeflate(Self.inputs[3].bytes, level: 6)
        for count in stride(from: 0, to: data.count, by: 97) + [data.count - 1] {
            #expect(Self.walk(Array(data[..<count])).status != DEFLATE_WALK_OK, "the first \(count) of \(data.count) bytes")
        }
    }

    @Test func bytesAfterTheFinalBlockAreAnError() throws {
        let data = try Self.libdeflate(Self.inputs[3].bytes, level: 6)
        #expect(Self.walk(data + [0]).status == DEFLATE_WALK_TRAILING_DATA)
    }

    @Test func aReservedBlockTypeOrBadStoredLengthIsAnError() {
        #expect(Self.walk([0x07, 0x00]).status == DEFLATE_WALK_RESERVED_BLOCK_TYPE)  // BFINAL 1, BTYPE 11
        #expect(Self.walk([0x01, 0x01, 0x00, 0xFF, 0xFF, 0x41]).status == DEFLATE_WALK_BAD_STORED_LENGTH)
        #expect(Self.walk([0x01, 0x01, 0x00, 0xFE, 0xFF, 0x41]).status == DEFLATE_WALK_OK)
    }

    @Test func aMatchBeforeTheStartIsAnError() {
        // A fixed-Huffman block: literal 'a' (0x91 in 8 bits), then length 3
        // (code 257, 7 bits) at distance 2 (code 1, 5 bits): one byte back only exists.
        var bits: [Bool] = [true, true, false]  // BFINAL 1, BTYPE 01
        func code(_ value: Int, _ count: Int) { for shift in (0..<count).reversed() { bits.append(value >> shift & 1 == 1) } }
        code(0x30 + 0x61, 8)
        code(1, 7)
        code(1, 5)
        code(0, 7)  // end of block
        var bytes = [UInt8](repeating: 0, count: (bits.count + 7) / 8)
        for (index, bit) in bits.enumerated() where bit { bytes[index / 8] |= 1 << (index % 8) }
        #expect(Self.walk(bytes).status == DEFLATE_WALK_BAD_DISTANCE)
    }

    /// Damaged data (every bit of a small stream flipped in turn) and noise:
    /// wherever zlib inflates the whole stream the walk must agree with it,
    /// and nothing may crash.
    @Test func damagedDataWalkAsZlibInflatesThem() throws {
        let input = Array("Grüße, the quick brown fox jumps over the lazy dog; the lazy dog sleeps.".utf8)
        let data = try Self.libdeflate(input, level: 6)
        var generator = SplitMix(seed: 3)
        var cases = (0..<data.count * 8).map { bit in
            var damaged = data
            damaged[bit / 8] ^= 1 << (bit % 8)
            return damaged
        }
        cases += (0..<2_000).map { _ in (0..<Int(generator.next() % 64)).map { _ in UInt8(truncatingIfNeeded: generator.next()) } }
        for damaged in cases {
            let (status, walked) = Self.walk(damaged)
            guard status == DEFLATE_WALK_OK else { continue }
            let expected = try Self.zlibBoundaries(damaged, inputLength: Int(walked.decompressed_length))
            #expect(walked.final_block_bit == expected.final_block_bit)
            #expect(walked.end_bit == expected.end_bit)
            #expect(walked.decompressed_length == expected.decompressed_length)
        }
    }
}
#endif
