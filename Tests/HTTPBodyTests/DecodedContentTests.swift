import CZlib
import HTTPBody
import Testing

/// `decodingContent(_:)` as a program calls it on a response's chunks, with
/// data made by zlib's own `compress2` (and the gzip framing of RFC 1952
/// built around its deflate data here), not by this package's deflater.
@Suite struct DecodedContentTests {
    /// Text that compresses, with bytes that do not between.
    static let original: [UInt8] = {
        var bytes: [UInt8] = []
        var state: UInt32 = 1952
        for line in 0..<2_000 {
            bytes += Array("line \(line): the quick brown fox jumps over the lazy dog\n".utf8)
            for _ in 0..<40 {
                state = state &* 1_103_515_245 &+ 12_345
                bytes.append(UInt8(truncatingIfNeeded: state >> 16))
            }
        }
        return bytes
    }()

    /// zlib-wrapped deflate data (RFC 1950) of `bytes`.
    static func zlibData(_ bytes: [UInt8]) -> [UInt8] {
        var length = compressBound(uLong(bytes.count))
        var output = [UInt8](repeating: 0, count: Int(length))
        let status = compress2(&output, &length, bytes, uLong(bytes.count), 6)
        precondition(status == Z_OK)
        return Array(output[..<Int(length)])
    }

    /// Raw deflate data (RFC 1951): the zlib data without its 2-byte header
    /// and 4-byte Adler-32 trailer.
    static func rawDeflate(_ bytes: [UInt8]) -> [UInt8] {
        Array(zlibData(bytes).dropFirst(2).dropLast(4))
    }

    /// A gzip member (RFC 1952) around the raw deflate data.
    static func gzipData(_ bytes: [UInt8]) -> [UInt8] {
        let crc = UInt32(bytes.withUnsafeBufferPointer { CZlib.crc32(0, $0.baseAddress, uInt($0.count)) })
        let size = UInt32(truncatingIfNeeded: bytes.count)
        let littleEndian = { (value: UInt32) in (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3] + rawDeflate(bytes) + littleEndian(crc) + littleEndian(size)
    }

    /// `bytes` as a sequence of chunks of `size` bytes.
    static func chunks(_ bytes: [UInt8], size: Int) -> AsyncStream<[UInt8]> {
        AsyncStream { continuation in
            var start = 0
            while start < bytes.count {
                continuation.yield(Array(bytes[start..<min(start + size, bytes.count)]))
                start += size
            }
            continuation.finish()
        }
    }

    static func decoded(_ bytes: [UInt8], encoding: String?, chunkSize: Int) async throws -> (bytes: [UInt8], largestPiece: Int) {
        var output: [UInt8] = []
        var largest = 0
        for try await piece in try chunks(bytes, size: chunkSize).decodingContent(encoding) {
            output += piece
            largest = max(largest, piece.count)
        }
        return (output, largest)
    }

    @Test("gzip, zlib-wrapped and raw deflate, and both in a row, decode whatever the chunk size", arguments: [1, 7, 4096, 1 << 20])
    func decodesEveryFormatInAnyChunking(chunkSize: Int) async throws {
        let cases: [(String, [UInt8])] = [
            ("gzip", Self.gzipData(Self.original)),
            ("X-GZIP", Self.gzipData(Self.original)),
            ("deflate", Self.zlibData(Self.original)),
            ("deflate", Self.rawDeflate(Self.original)),
            ("deflate , gzip", Self.gzipData(Self.zlibData(Self.original))),
            ("identity", Self.original),
        ]
        for (encoding, data) in cases {
            let result = try await Self.decoded(data, encoding: encoding, chunkSize: chunkSize)
            let same = result.bytes == Self.original
            #expect(same, "\(encoding): \(result.bytes.count) bytes, not \(Self.original.count)")
        }
    }

    @Test("A small body that inflates to 64 MiB comes out in pieces of at most pieceSize")
    func piecesAreBounded() async throws {
        let zeros = [UInt8](repeating: 0, count: 64 << 20)
        let result = try await Self.decoded(Self.gzipData(zeros), encoding: "gzip", chunkSize: 1 << 20)
        #expect(result.bytes.count == zeros.count)
        #expect(result.largestPiece <= DecodedContent<AsyncStream<[UInt8]>>.pieceSize)
    }

    @Test("An empty body decodes to nothing, whatever its coding says")
    func emptyBodyIsNotTruncated() async throws {
        for encoding in ["gzip", "deflate", nil] {
            #expect(try await Self.decoded([], encoding: encoding, chunkSize: 1).bytes.isEmpty)
        }
    }

    @Test("A coding that cannot be decoded is refused before a byte is read")
    func unsupportedCodingIsRefused() throws {
        let error = #expect(throws: ContentDecodingError.self) {
            _ = try Self.chunks([1, 2, 3], size: 1).decodingContent("gzip, br")
        }
        #expect(error?.code == .unsupportedCoding)
        #expect(error?.description == "the body is encoded with 'br', which cannot be decoded here (gzip and deflate can)")
    }

    @Test("Bytes that are not gzip data, and gzip data cut short, are errors naming the coding")
    func corruptAndTruncatedAreErrors() async throws {
        let corrupt = await #expect(throws: ContentDecodingError.self) {
            _ = try await Self.decoded(Array("not gzip at all".utf8), encoding: "gzip", chunkSize: 4)
        }
        #expect(corrupt?.code == .corrupt)
        #expect(corrupt?.description == "the body is not valid gzip data: incorrect header check")
        let gzip = Self.gzipData(Self.original)
        for cut in [1, 11, gzip.count / 2, gzip.count - 1] {
            let truncated = await #expect(throws: ContentDecodingError.self) {
                _ = try await Self.decoded(Array(gzip[..<cut]), encoding: "gzip", chunkSize: 1000)
            }
            #expect(truncated?.code == .truncated, "cut at \(cut)")
            #expect(truncated?.description == "the body ended before its gzip data did")
        }
    }
}
