import Crypto
import Foundation
import HTTPBody
import HTTPTypes
@testable import ObjectStorage
import RequestBuilder
import ResumableUploads
import TestSupport
import Testing

/// The checksum each upload carries for the store to verify: CRC-32 by
/// default, as the AWS SDKs send it, and SHA-256 still for an upload begun
/// with it. Against moto with signatures and checksum fields checked
/// (Tests/Servers/s3_server.py); CRC-32s computed here by a table of our
/// own, not by the zlib the code under test calls.
@Suite(.serialized) struct S3ChecksumTests {
    static let partSize = Int(S3MultipartUpload.minimumPartSize)

    @Test func partsCarryTheirCRC32AndTheStoreKeepsTheComposite() async throws {
        let log = RequestLog()
        let store = try await S3TestStore.make(middleware: [log])
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: Self.partSize * 2 + 777)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "checked.bin")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Int64(Self.partSize), concurrency: 2)
        _ = try await upload.send(with: store.s3)

        let parts = try Self.parts(of: fixture)
        let crcs = parts.map { Self.referenceCRC32($0) }
        #expect(log.field("x-amz-checksum-algorithm", ofRequestTo: "?uploads") == "CRC32")
        for (index, crc) in crcs.enumerated() {
            #expect(log.field("x-amz-checksum-crc32", ofRequestTo: "partNumber=\(index + 1)&") == Self.base64(crc))
            #expect(log.field("x-amz-checksum-sha256", ofRequestTo: "partNumber=\(index + 1)&") == nil)
        }
        // The store's own composite: the CRC-32 of the parts' CRC-32s, and their count.
        let composite = Self.base64(Self.referenceCRC32(crcs.flatMap(Self.bigEndian))) + "-3"
        #expect(try await Self.storedChecksum("x-amz-checksum-crc32", of: location, in: store) == composite)
    }

    @Test func aPartWhoseChecksumDiffersIsRefusedAndTheUploadAborted() async throws {
        let store = try await S3TestStore.make(middleware: [SpoilField(name: "x-amz-checksum-crc32", part: 2, value: "AAAAAA==")])
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: Self.partSize * 2 + 7)
        defer { fixture.remove() }
        let upload = try S3MultipartUpload(
            body: .file(at: fixture.file), to: S3Location(bucket: bucket, key: "spoiled.bin"), partSize: Int64(Self.partSize), concurrency: 2
        )
        let error = await #expect(throws: S3Error.self) { try await upload.send(with: store.s3) }
        #expect(error?.serviceCode == "BadDigest")
        #expect(error?.status?.code == 400)
        #expect(try await store.unfinishedUploads(in: bucket).contains("<Upload>") == false)
    }

    @Test func aSinglePutCarriesItsCRC32() async throws {
        let log = RequestLog()
        let store = try await S3TestStore.make(middleware: [log])
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: 100_000)
        defer { fixture.remove() }
        try await store.s3.putObject(.file(at: fixture.file), at: S3Location(bucket: bucket, key: "one.bin"))
        let bytes = [UInt8](try Data(contentsOf: fixture.file))
        #expect(log.field("x-amz-checksum-crc32", ofRequestTo: "/one.bin") == Self.base64(Self.referenceCRC32(bytes)))
    }

    @Test func anUploadBegunWithSHA256ResumesWithSHA256() async throws {
        let log = RequestLog()
        let store = try await S3TestStore.make(middleware: [log])
        var before = store.s3
        before.checksumAlgorithm = .sha256  // as every version before CRC-32 sent
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: Self.partSize * 3 + 1)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "older.bin")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Int64(Self.partSize), concurrency: 1)
        let saved = StateBox()
        let twoPartsIn = AsyncStream<Void>.makeStream()
        let first = Task {
            try await upload.send(with: before, stateChanged: { saved.set($0) }, progress: { update in
                if update.bytesSent > 2 * Int64(Self.partSize) { twoPartsIn.continuation.yield() }  // part 3 begun: 2 held
            })
        }
        for await _ in twoPartsIn.stream { break }
        first.cancel()
        _ = await first.result
        // What an earlier version saved: no checksumAlgorithm at all.
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(try #require(saved.value))) as? [String: Any] ?? [:]
        json["checksumAlgorithm"] = nil
        let state = try JSONDecoder().decode(S3MultipartUpload.State.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(state.checksumAlgorithm == .sha256)

        log.clear()
        _ = try await upload.send(with: store.s3, resumingFrom: state)  // a client that would begin with CRC-32
        let parts = try Self.parts(of: fixture)
        #expect(log.field("x-amz-checksum-sha256", ofRequestTo: "partNumber=4&") == Data(SHA256.hash(data: parts[3])).base64EncodedString())
        #expect(log.field("x-amz-checksum-crc32", ofRequestTo: "partNumber=4&") == nil)
        let composite = Data(SHA256.hash(data: parts.flatMap { Array(SHA256.hash(data: $0)) })).base64EncodedString() + "-4"
        #expect(try await Self.storedChecksum("x-amz-checksum-sha256", of: location, in: store) == composite)
    }

    @Test func listPartsGivesEachPartTheUploadsChecksum() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <ListPartsResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/"><IsTruncated>false</IsTruncated>
            <Part><PartNumber>1</PartNumber><ETag>"a"</ETag><Size>5242880</Size><ChecksumCRC32>3qmhUw==</ChecksumCRC32></Part>
            <Part><PartNumber>2</PartNumber><ETag>"b"</ETag><Size>9</Size></Part>
            </ListPartsResult>
            """
        let response = Response(head: HTTPResponse(status: .ok), body: Data(xml.utf8))
        let location = try S3Location(bucket: "abc", key: "k")
        let crc = try S3MultipartUpload.readPartList(response, algorithm: .crc32, location: location)
        #expect(crc.parts.map(\.checksum) == ["3qmhUw==", nil])
        let sha = try S3MultipartUpload.readPartList(response, algorithm: .sha256, location: location)
        #expect(sha.parts.map(\.checksum) == [nil, nil])
    }

    @Test func theAlgorithmIsSavedByS3sName() throws {
        #expect(String(decoding: try JSONEncoder().encode([S3ChecksumAlgorithm.crc32, .sha256]), as: UTF8.self) == #"["CRC32","SHA256"]"#)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([S3ChecksumAlgorithm].self, from: Data(#"["MD5"]"#.utf8)) }
    }

    // MARK: Helpers

    /// The fixture cut into parts of `partSize`.
    static func parts(of fixture: UploadFixture) throws -> [[UInt8]] {
        let bytes = [UInt8](try Data(contentsOf: fixture.file))
        return stride(from: 0, to: bytes.count, by: partSize).map { Array(bytes[$0..<min(bytes.count, $0 + partSize)]) }
    }

    /// The checksum field moto returns for the object when asked (`x-amz-checksum-mode: ENABLED`).
    static func storedChecksum(_ name: String, of location: S3Location, in store: S3TestStore) async throws -> String? {
        // A GET: moto's HEAD leaves out a composite checksum's part count.
        let request = try store.s3.request(.get, bucket: location.bucket, key: location.key)
            .header("x-amz-checksum-mode", "ENABLED")
            .build()
        return try await store.s3.client.send(request, maximumBodySize: 64 << 20).headerFields[try #require(HTTPField.Name(name))]
    }

    static let table: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1 }
        return value
    }

    /// CRC-32 (reflected, polynomial 0xEDB88320) a byte at a time.
    static func referenceCRC32(_ bytes: [UInt8]) -> UInt32 {
        ~bytes.reduce(UInt32.max) { crc, byte in table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
    }

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: value >> $0) }
    }

    static func base64(_ crc: UInt32) -> String {
        Data(bigEndian(crc)).base64EncodedString()
    }
}

/// The head of every request sent through it, before signing.
final class RequestLog: RequestMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var heads: [HTTPRequest] = []

    func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        lock.withLock { heads.append(request.head) }
        return try await next(request)
    }

    /// The field `name` of the last request whose path contains `fragment`.
    func field(_ name: String, ofRequestTo fragment: String) -> String? {
        guard let name = HTTPField.Name(name) else { return nil }
        return lock.withLock { heads.last { $0.path?.contains(fragment) == true }?.headerFields[name] }
    }

    func clear() {
        lock.withLock { heads.removeAll() }
    }
}

/// Sets field `name` of part `part`'s requests to `value`.
struct SpoilField: RequestMiddleware {
    let name: String
    let part: Int
    let value: String

    func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        guard request.head.path?.contains("partNumber=\(part)&") == true, let field = HTTPField.Name(name) else {
            return try await next(request)
        }
        return try await next(request.updating { $0.headerFields[field] = value })
    }
}
