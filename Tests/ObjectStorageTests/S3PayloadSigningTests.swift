import Crypto
import Foundation
import HTTPBody
import ObjectStorage
import RequestBuilder
import TestSupport
import HTTPTypes
import Testing
import AWSSigning

/// How the bytes of a `PUT` or part are signed (`S3Client.payloadSigning`):
/// over HTTPS, by default, as `STREAMING-UNSIGNED-PAYLOAD-TRAILER` with their
/// CRC-32 in an aws-chunked trailer, as the AWS SDKs send them there (in
/// `x-amz-checksum-crc32` where the store refuses trailers); over plain HTTP,
/// and over HTTPS when asked, their SHA-256 signed. Against moto over HTTP and
/// over TLS (Tests/Servers/s3_server.py: every signature, payload hash and
/// checksum field checked, and each request's payload hash recorded by the
/// server); SHA-256s by swift-crypto and CRC-32s by the tests' own table.
@Suite(.serialized) struct S3PayloadSigningTests {
    static let partSize = Int(S3MultipartUpload.minimumPartSize)

    @Test func overHTTPSPartsGoUnsignedWithTheirCRC32InATrailer() async throws {
        let store = try await S3TestStore.make(overTLS: true)
        let sent = try await Self.uploadThreeParts(with: store.s3, in: store, key: "unsigned.bin")
        for (number, part) in sent.parts.enumerated().map({ ($0 + 1, $1) }) {
            let record = sent.records.first { $0.target.contains("partNumber=\(number)&") }
            #expect(record?.payload == Self.trailer)
            #expect(record?.crc32 == S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(part)))
        }
        #expect(sent.records.count == 3)
    }

    /// The store checks the CRC-32 in the trailer against the bytes: one
    /// spoilt on the way is refused, and not taken for a store without trailers.
    @Test func aWrongCRC32InTheTrailerIsRefused() async throws {
        let store = try await S3TestStore.make(middleware: [SpoilTrailer()], overTLS: true)
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: 100_000)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "spoilt.bin")
        let error = await #expect(throws: S3Error.self) { try await store.s3.putObject(.file(at: fixture.file), at: location) }
        #expect(error?.serviceCode == "BadDigest")
        await #expect(throws: (any Error).self, "the store kept the spoilt object") { try await store.object(location) }
        let large = try UploadFixture(size: Self.partSize + 777)
        defer { large.remove() }
        let upload = try S3MultipartUpload(
            body: .file(at: large.file), to: S3Location(bucket: bucket, key: "spoilt-parts.bin"), partSize: Int64(Self.partSize), concurrency: 1
        )
        let partError = await #expect(throws: S3Error.self) { try await upload.send(with: store.s3) }
        #expect(partError?.serviceCode == "BadDigest")
    }

    /// A store that answers the trailer form `501 NotImplemented` (see
    /// `REFUSING_TRAILERS` in s3_server.py) gets each refused request again
    /// whole with the CRC-32 in its header, at once (the 501 is not retried,
    /// though the client retries every 5xx), and the client's later uploads
    /// go in that form from the start.
    @Test func aStoreThatRefusesTrailersGetsTheChecksumInTheHeader() async throws {
        let store = try await S3TestStore.make(overTLS: true)
        let bucket = try await store.makeBucket(prefix: "refuses-trailers-")
        let fixture = try UploadFixture(size: Self.partSize * 2 + 777)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "parts.bin")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Int64(Self.partSize), concurrency: 2)
        _ = try await upload.send(with: store.s3)
        #expect(try await store.object(location).body == Data(contentsOf: fixture.file))
        let parts = try S3ChecksumTests.parts(of: fixture)
        let records = try store.server.payloads().filter { $0.method == "PUT" && $0.target.hasPrefix("/\(bucket)/parts.bin?") }
        #expect(records.contains { $0.payload == Self.trailer }, "the first part was not sent with a trailer")
        for (number, part) in parts.enumerated().map({ ($0 + 1, $1) }) {
            let refused = records.filter { $0.target.contains("partNumber=\(number)&") && $0.payload == Self.trailer }
            #expect(refused.count <= 1, "part \(number): the refused trailer form was sent \(refused.count) times")
            let taken = records.filter { $0.target.contains("partNumber=\(number)&") && $0.payload == "UNSIGNED-PAYLOAD" }
            #expect(taken.map { $0.crc32 } == [S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(part))])
        }

        let single = try S3Location(bucket: bucket, key: "one.bin")
        try await store.s3.putObject(.file(at: fixture.file), at: single)
        let singleRecords = try store.server.payloads().filter { $0.method == "PUT" && $0.target == "/\(bucket)/one.bin" }
        #expect(singleRecords.map(\.payload) == ["UNSIGNED-PAYLOAD"])
        #expect(try await store.object(single).body == Data(contentsOf: fixture.file))
    }

    @Test func overHTTPPartsStaySigned() async throws {
        let store = try await S3TestStore.make()
        let sent = try await Self.uploadThreeParts(with: store.s3, in: store, key: "signed.bin")
        for (number, part) in sent.parts.enumerated().map({ ($0 + 1, $1) }) {
            let record = sent.records.first { $0.target.contains("partNumber=\(number)&") }
            #expect(record?.payload == Self.sha256Hex(part))
            #expect(record?.crc32 == S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(part)))
        }
        #expect(sent.records.count == 3)
    }

    @Test func alwaysSignsPartsOverHTTPS() async throws {
        let store = try await S3TestStore.make(overTLS: true)
        var s3 = store.s3
        s3.payloadSigning = .always
        let sent = try await Self.uploadThreeParts(with: s3, in: store, key: "always.bin")
        for (number, part) in sent.parts.enumerated().map({ ($0 + 1, $1) }) {
            let record = sent.records.first { $0.target.contains("partNumber=\(number)&") }
            #expect(record?.payload == Self.sha256Hex(part))
            #expect(record?.crc32 == S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(part)))
        }
        #expect(sent.records.count == 3)
    }

    @Test func aSinglePutOverHTTPSGoesUnsignedWithItsCRC32InATrailer() async throws {
        let store = try await S3TestStore.make(overTLS: true)
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: 100_000)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "one.bin")
        try await store.s3.putObject(.file(at: fixture.file), at: location)
        let bytes = [UInt8](try Data(contentsOf: fixture.file))
        let records = try store.server.payloads().filter { $0.method == "PUT" && $0.target == "/\(bucket)/one.bin" }
        #expect(records.map(\.payload) == [Self.trailer])
        #expect(records.map(\.crc32) == [S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(bytes))])
        #expect(try await store.object(location).body == Data(bytes))
    }

    /// With SHA-256 as the checksum, the digest is computed anyway: the payload is signed with it over HTTPS too.
    @Test func aSHA256ChecksumIsSignedOverHTTPS() async throws {
        let store = try await S3TestStore.make(overTLS: true)
        var s3 = store.s3
        s3.checksumAlgorithm = .sha256
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: 100_000)
        defer { fixture.remove() }
        try await s3.putObject(.file(at: fixture.file), at: S3Location(bucket: bucket, key: "sha.bin"))
        let records = try store.server.payloads().filter { $0.method == "PUT" && $0.target == "/\(bucket)/sha.bin" }
        #expect(records.map(\.payload) == [Self.sha256Hex([UInt8](try Data(contentsOf: fixture.file)))])
    }

    // MARK: Helpers

    /// Uploads a file of three parts to a fresh bucket with `s3`, checks
    /// that the object reads back byte for byte and that the store's
    /// composite CRC-32 is the parts', and returns the parts and what the
    /// server recorded of their `PUT`s.
    static func uploadThreeParts(
        with s3: S3Client, in store: S3TestStore, key: String
    ) async throws -> (parts: [[UInt8]], records: [MotoServer.Payload]) {
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: partSize * 2 + 777)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: key)
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Int64(partSize), concurrency: 2)
        _ = try await upload.send(with: s3)

        let parts = try S3ChecksumTests.parts(of: fixture)
        #expect(try await store.object(location).body == Data(contentsOf: fixture.file))
        let crcs = parts.map { S3ChecksumTests.referenceCRC32($0) }
        let composite = S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(crcs.flatMap(S3ChecksumTests.bigEndian))) + "-3"
        #expect(try await S3ChecksumTests.storedChecksum("x-amz-checksum-crc32", of: location, in: store) == composite)
        let records = try store.server.payloads().filter { $0.method == "PUT" && $0.target.hasPrefix("/\(bucket)/\(key)?") }
        return (parts, records)
    }

    static let trailer = "STREAMING-UNSIGNED-PAYLOAD-TRAILER"

    static func sha256Hex(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}

/// Changes the first base64 digit of the CRC-32 in an aws-chunked trailer,
/// so the store's check of it fails.
struct SpoilTrailer: RequestMiddleware {
    func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        guard let body = request.body, request.head.headerFields[.xAmzContentSHA256] == S3PayloadSigningTests.trailer else {
            return try await next(request)
        }
        let spoilt = RequestBody(contentType: body.contentType, contentEncoding: body.contentEncoding, length: body.length, isReplayable: body.isReplayable) {
            SpoiltTrailer(inner: try body.makeChunkSource())
        }
        return try await next(request.updating(body: spoilt))
    }
}

/// ``SpoilTrailer``'s body: the chunks it reads, the trailer's changed.
struct SpoiltTrailer: ChunkSource {
    var inner: any ChunkSource

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        guard var bytes = try await inner.nextChunk(maximumLength: maximumLength, as: [UInt8].self)?.storage else { return nil }
        let marker = Array("x-amz-checksum-crc32:".utf8)
        if bytes.count < 256, let start = bytes.indices.first(where: { Array(bytes[$0...].prefix(marker.count)) == marker }) {
            let digit = start + marker.count
            bytes[digit] = bytes[digit] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        }
        return BodyChunk(.holding(bytes), isCompressible: false)
    }
}
