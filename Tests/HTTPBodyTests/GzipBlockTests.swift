#if canImport(CLibDeflate)
import CLibDeflate
#endif
import CZlib
import HTTPBody
import Testing

/// Bodies of many 128 KiB blocks, compressed several at once: the same bytes
/// whatever the concurrency, inflated back exactly, close to one stream of their compressor in size.
@Suite struct GzipBlockTests {
    /// About `count` bytes of text from a small vocabulary, so that matches
    /// reach across block edges and a missing dictionary would show in the size.
    static func words(count: Int, seed: UInt64) -> [UInt8] {
        let vocabulary = ["upload", "chunk", "gzip", "block", "stream", "server", "request", "boundary", "part", "json",
                          "the", "a", "of", "and", "to", "in", "is", "for", "with", "on"].map { Array($0.utf8) }
        var generator = SplitMix(seed: seed)
        var text: [UInt8] = []
        text.reserveCapacity(count + 16)
        while text.count < count {
            let value = generator.next()
            text += vocabulary[Int(value % UInt64(vocabulary.count))]
            text.append(value & 0xF00 == 0 ? 0x0A : 0x20)
        }
        return text
    }

    static func noise(count: Int, seed: UInt64) -> [UInt8] {
        var generator = SplitMix(seed: seed)
        return (0..<count).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
    }

    /// The body gzipped at each concurrency: checks the outputs are equal and
    /// inflate to `expected`, and returns the output.
    private func expectSameBytesAtEveryConcurrency(
        _ body: RequestBody, level: Int = 6, inflatingTo expected: [UInt8],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [UInt8] {
        let serial = try await body.gzipped(GzipOptions(level: level, concurrency: 1)).collect(upTo: 1 << 30)
        #expect(try GzipBodyTests.gunzip(serial) == expected, sourceLocation: sourceLocation)
        for concurrency in [2, 3, 4] {
            let parallel = try await body.gzipped(GzipOptions(level: level, concurrency: concurrency)).collect(upTo: 1 << 30)
            #expect(parallel == serial, "concurrency \(concurrency)", sourceLocation: sourceLocation)
        }
        return serial
    }

    @Test func largeBodyCompressesToTheSameBytesAtEveryConcurrency() async throws {
        let text = Self.words(count: 5 * 1_048_576 + 12_345, seed: 1)
        let compressed = try await expectSameBytesAtEveryConcurrency(.bytes(text, contentType: .plainText), inflatingTo: text)
        // The output chunk size does not move block edges either.
        var chunked: [UInt8] = []
        for try await chunk in RequestBody.bytes(text).gzipped(GzipOptions(concurrency: 4)).chunks(maximumChunkSize: 7_001) {
            #expect(chunk.count <= 7_001)
            chunked += chunk
        }
        #expect(chunked == compressed)
    }

    /// Blocks cost little beside one stream of the compressor that makes
    /// them. zlib primes each block with the 32 KiB before it, so its blocks
    /// stay within a percent of one zlib stream. libdeflate takes no
    /// dictionary, so its 128 KiB blocks lose the matches across each edge:
    /// within 1.5 % of libdeflate's one call over the whole input at the
    /// same level (about 1.2 % on this small vocabulary; 64 KiB blocks would
    /// lose 2.4 %). libdeflate's level 6 is itself about 5 % larger than
    /// zlib's on this vocabulary, so its blocks are not compared with zlib's stream.
    @Test func staysCloseToOneStreamOfItsCompressor() async throws {
        let text = Self.words(count: 3 * 1_048_576, seed: 2)
        let blocks = try await RequestBody.bytes(text).gzipped(GzipOptions(level: 6, concurrency: 4)).collect(upTo: 1 << 30)
        #if canImport(CLibDeflate)
        let oneCall = try #require(Self.gzipSizeInOneLibDeflateCall(text, level: 6))
        #expect(Double(blocks.count) <= Double(oneCall) * 1.015, "\(blocks.count) bytes beside libdeflate's \(oneCall) in one call")
        #else
        let oneStream = try Self.gzipInOneStream(text, level: 6)
        #expect(Double(blocks.count) <= Double(oneStream.count) * 1.01, "\(blocks.count) bytes beside zlib's \(oneStream.count)")
        #endif
    }

    /// A block that does not end on a byte boundary is padded with empty
    /// fixed-Huffman blocks, or with an empty stored block when its bit count
    /// is odd: eight blocks at each of four levels end at enough different
    /// bit positions to take each way, and the stream must inflate back whichever.
    @Test(arguments: [1, 3, 6, 9])
    func blocksEndingAtAnyBitInflateBack(_ level: Int) async throws {
        let text = Self.words(count: 8 * 128 * 1024 + 999, seed: UInt64(100 + level))
        _ = try await expectSameBytesAtEveryConcurrency(.bytes(text, contentType: .plainText), level: level, inflatingTo: text)
    }

    @Test(arguments: [1, 6, 9])
    func mixedBodyAcrossBlockEdgesStoresWhatIsMarkedIncompressible(_ level: Int) async throws {
        let block = 128 * 1024
        let pieces: [([UInt8], Bool)] = [
            (Self.words(count: 200_000, seed: 3), true),
            (Self.noise(count: block + 3_000, seed: 4), false),
            (Self.words(count: 10, seed: 5), true),
            (Self.noise(count: block, seed: 6), false),
            (Self.words(count: block - 1, seed: 7), true),
            (Self.words(count: 5, seed: 8), true),
            (Self.noise(count: 1, seed: 9), false),
            (Self.words(count: 2 * block + 17, seed: 10), true),
            (Self.noise(count: 70_000, seed: 11), false),
        ]
        let input = pieces.flatMap(\.0)
        let compressed = try await expectSameBytesAtEveryConcurrency(GzipBodyTests.markedBody(pieces), level: level, inflatingTo: input)
        let noise = pieces.filter { !$0.1 }.reduce(0) { $0 + $1.0.count }
        #expect(compressed.count > noise)  // stored, not squeezed
        #expect(compressed.count < noise + (input.count - noise) / 2)  // the text still deflated
    }

    @Test func errorFromTheInnerBodyMidwayEndsTheStream() async throws {
        for concurrency in [1, 4] {
            let body = RequestBody(contentType: .octetStream, length: nil, isReplayable: true) {
                FailingChunkSource(text: Self.words(count: 3 * 1_048_576, seed: 12))
            }
            var received = 0
            await #expect(throws: InnerFailure.self, "concurrency \(concurrency)") {
                for try await chunk in body.gzipped(GzipOptions(concurrency: concurrency)).chunks() {
                    received += chunk.count
                }
            }
            #expect(received > 0, "the blocks before the failure were sent first")
        }
    }

    @Test(arguments: [1, 4])
    func emptyBodyIsOneEmptyFinalBlock(_ concurrency: Int) async throws {
        let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0]
        let trailer = [UInt8](repeating: 0, count: 8)  // CRC-32 and length of nothing
        let deflated = try await RequestBody.empty.gzipped(GzipOptions(concurrency: concurrency)).collect()
        #expect(deflated == header + [0, 0xFF] + [0x03, 0x00] + trailer)
        let stored = try await RequestBody.empty.gzipped(GzipOptions(level: 0, concurrency: concurrency)).collect()
        #expect(stored == header + [4, 0xFF] + [0x01, 0x00, 0x00, 0xFF, 0xFF] + trailer)
        #expect(try GzipBodyTests.gunzip(deflated) == [])
        #expect(try GzipBodyTests.gunzip(stored) == [])
    }

    @Test func concurrencyDefaultsToTheCoresAndBelowOneMeansOne() async throws {
        #expect((1...4).contains(GzipOptions().concurrency))
        let text = Self.words(count: 300_000, seed: 13)
        let zero = try await RequestBody.bytes(text).gzipped(GzipOptions(concurrency: 0)).collect()
        let one = try await RequestBody.bytes(text).gzipped(GzipOptions(concurrency: 1)).collect()
        #expect(zero == one)
    }

    #if canImport(CLibDeflate)
    /// The size of a gzip member holding libdeflate's raw deflate stream of
    /// the whole input from one call at `level`: its data plus the 18 bytes
    /// of header and trailer.
    static func gzipSizeInOneLibDeflateCall(_ input: [UInt8], level: Int32) -> Int? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_deflate_compress_bound(compressor, input.count))
        let count = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                libdeflate_deflate_compress(compressor, source.baseAddress, source.count, target.baseAddress, target.count)
            }
        }
        return count > 0 ? count + 18 : nil
    }
    #endif

    /// The whole input through one zlib stream with a gzip wrapper: the size to stay close to.
    static func gzipInOneStream(_ input: [UInt8], level: Int32) throws -> [UInt8] {
        var stream = z_stream()
        try #require(czlib_deflateInit2(&stream, level, Z_DEFLATED, 31, 8, Z_DEFAULT_STRATEGY) == Z_OK)
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))))
        var source = input
        let status = source.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.next_in = inputBuffer.baseAddress
                stream.avail_in = uInt(inputBuffer.count)
                stream.next_out = outputBuffer.baseAddress
                stream.avail_out = uInt(outputBuffer.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        try #require(status == Z_STREAM_END)
        return Array(output[..<Int(stream.total_out)])
    }
}

private struct InnerFailure: Error {}

/// Hands out `text` in 64 KiB chunks, then fails instead of ending.
private struct FailingChunkSource: ChunkSource {
    let text: [UInt8]
    var offset = 0

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        guard offset < text.count else { throw InnerFailure() }
        let count = min(maximumLength, 64 * 1024, text.count - offset)
        defer { offset += count }
        return BodyChunk(.holding(Array(text[offset..<offset + count])))
    }
}
