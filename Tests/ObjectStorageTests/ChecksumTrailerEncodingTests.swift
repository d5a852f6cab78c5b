import AWSSigning
import Foundation
import HTTPBody
@testable import RequestBuilderAsyncHTTPClient
import Testing

/// The unsigned `aws-chunked` body with a CRC-32 trailer, read as a
/// transport reads it, in writes of several sizes, from sources that read
/// whole chunks and from one that reads short; decoded here by a parser of
/// its own (the framing of S3's `STREAMING-UNSIGNED-PAYLOAD-TRAILER`).
@Suite struct ChecksumTrailerEncodingTests {
    static let bytes: [UInt8] = (0..<1_200_000).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 13) }

    @Test(arguments: [523_200, 523_264, 524_288, 600_000, 4_096, 100])
    func decodesToTheBytesAndTheirCRC32(maximumLength: Int) async throws {
        for body in [RequestBody.bytes(Self.bytes), Self.shortReads(Self.bytes)] {
            let sent = AWSChunkedTrailerEncoding.SentChecksum()
            let encoded = AWSChunkedTrailerEncoding.encode(body, decodedLength: Int64(Self.bytes.count), recordingIn: sent)
            let wire = try await Self.read(encoded, maximumLength: maximumLength)
            #expect(Int64(wire.count) == encoded.length)
            let (data, trailer) = try #require(Self.decode(wire))
            #expect(data == Self.bytes)
            let crc = S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(Self.bytes))
            #expect(trailer == ["x-amz-checksum-crc32": crc])
            #expect(sent.base64 == crc)
            #expect(encoded.contentEncoding == "aws-chunked")
        }
    }

    /// Read as the TLS transport reads (523,200 bytes a read), each chunk
    /// but the last fills one read, its framing included.
    @Test func eachChunkFillsOneReadOfTheTLSTransport() async throws {
        let encoded = AWSChunkedTrailerEncoding.encode(.bytes(Self.bytes), decodedLength: Int64(Self.bytes.count), recordingIn: .init())
        var reader = ChunkReader(encoded)
        var sizes: [Int] = []
        while let chunk = try await reader.next(maximumLength: 523_200, as: [UInt8].self) {
            sizes.append(chunk.storage.count)
        }
        #expect(sizes == [523_200, 523_200, 1_200_000 - 2 * 523_191 + 9, 36])
    }

    /// The read above is the transport's: its default 512 KiB chunks over
    /// TLS are read 523,200 bytes at a time. Change either constant and
    /// this fails, not just the speed.
    @Test func theTLSTransportReads523200BytesAtATime() {
        #expect(OutgoingBuffer.readLength(forChunkSize: 512 * 1024, inTLSRecords: true) == 523_200)
    }

    @Test func anEmptyBodyIsTheFinalChunkAndTheTrailer() async throws {
        let sent = AWSChunkedTrailerEncoding.SentChecksum()
        let encoded = AWSChunkedTrailerEncoding.encode(.bytes([]), decodedLength: 0, recordingIn: sent)
        let wire = try await Self.read(encoded, maximumLength: 524_288)
        #expect(String(decoding: wire, as: UTF8.self) == "0\r\nx-amz-checksum-crc32:AAAAAA==\r\n\r\n")
        #expect(Int64(wire.count) == encoded.length)
    }

    @Test func aBodyShorterThanDeclaredFails() async throws {
        let encoded = AWSChunkedTrailerEncoding.encode(.bytes([1, 2, 3]), decodedLength: 4, recordingIn: .init())
        await #expect(throws: AWSSigningError.self) { try await Self.read(encoded, maximumLength: 524_288) }
    }

    // MARK: Helpers

    static func read(_ body: RequestBody, maximumLength: Int) async throws -> [UInt8] {
        var reader = ChunkReader(body)
        var wire: [UInt8] = []
        while let chunk = try await reader.next(maximumLength: maximumLength, as: [UInt8].self) {
            #expect(chunk.storage.count <= maximumLength)
            wire += chunk.storage
        }
        return wire
    }

    /// `hex-size\r\n DATA \r\n` ... `0\r\n`, trailer lines, an empty line, nothing after.
    static func decode(_ wire: [UInt8]) -> (data: [UInt8], trailer: [String: String])? {
        var offset = 0
        func line() -> String? {
            guard let end = (offset..<max(offset, wire.count - 1)).first(where: { wire[$0] == 13 && wire[$0 + 1] == 10 }) else { return nil }
            defer { offset = end + 2 }
            return String(decoding: wire[offset..<end], as: UTF8.self)
        }
        var data: [UInt8] = []
        while true {
            guard let sizeLine = line(), let size = Int(sizeLine, radix: 16) else { return nil }
            if size == 0 { break }
            guard offset + size + 2 <= wire.count, wire[offset + size] == 13, wire[offset + size + 1] == 10 else { return nil }
            data += wire[offset..<offset + size]
            offset += size + 2
        }
        var trailer: [String: String] = [:]
        while let field = line(), !field.isEmpty {
            let parts = field.split(separator: ":", maxSplits: 1)
            guard parts.count == 2 else { return nil }
            trailer[String(parts[0])] = String(parts[1])
        }
        return offset == wire.count ? (data, trailer) : nil
    }

    /// A body whose source hands out at most 1,000 bytes a read, whatever is asked.
    static func shortReads(_ bytes: [UInt8]) -> RequestBody {
        RequestBody(contentType: nil, length: Int64(bytes.count), isReplayable: true) { ShortReads(bytes: bytes) }
    }
}

struct ShortReads: ChunkSource {
    let bytes: [UInt8]
    var offset = 0

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        guard offset < bytes.count else { return nil }
        let count = min(1_000, maximumLength, bytes.count - offset)
        defer { offset += count }
        return BodyChunk(.holding(Array(bytes[offset..<offset + count])))
    }
}
