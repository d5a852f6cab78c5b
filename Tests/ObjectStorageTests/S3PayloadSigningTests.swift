import Crypto
import Foundation
import HTTPBody
import ObjectStorage
import RequestBuilder
import TestSupport
import Testing

/// How the bytes of a `PUT` or part are signed (`S3Client.payloadSigning`):
/// over HTTPS, by default, as `UNSIGNED-PAYLOAD` with their CRC-32 in
/// `x-amz-checksum-crc32`, as the AWS SDKs send them there; over plain HTTP,
/// and over HTTPS when asked, their SHA-256 signed. Against moto over HTTP and
/// over TLS (Tests/Servers/s3_server.py: every signature, payload hash and
/// checksum field checked, and each request's payload hash recorded by the
/// server); SHA-256s by swift-crypto and CRC-32s by the tests' own table.
@Suite(.serialized) struct S3PayloadSigningTests {
    static let partSize = Int(S3MultipartUpload.minimumPartSize)

    @Test func overHTTPSPartsGoUnsignedWithTheirCRC32() async throws {
        let store = try await S3TestStore.make(overTLS: true)
        let sent = try await Self.uploadThreeParts(with: store.s3, in: store, key: "unsigned.bin")
        for (number, part) in sent.parts.enumerated().map({ ($0 + 1, $1) }) {
            let record = sent.records.first { $0.target.contains("partNumber=\(number)&") }
            #expect(record?.payload == "UNSIGNED-PAYLOAD")
            #expect(record?.crc32 == S3ChecksumTests.base64(S3ChecksumTests.referenceCRC32(part)))
        }
        #expect(sent.records.count == 3)
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

    @Test func aSinglePutOverHTTPSGoesUnsignedWithItsCRC32() async throws {
        let store = try await S3TestStore.make(overTLS: true)
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: 100_000)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "one.bin")
        try await store.s3.putObject(.file(at: fixture.file), at: location)
        let bytes = [UInt8](try Data(contentsOf: fixture.file))
        let records = try store.server.payloads().filter { $0.method == "PUT" && $0.target == "/\(bucket)/one.bin" }
        #expect(records.map(\.payload) == ["UNSIGNED-PAYLOAD"])
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

    static func sha256Hex(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
