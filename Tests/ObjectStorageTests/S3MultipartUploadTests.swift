import AWSSigning
import Crypto
import Foundation
import HTTPBody
import HTTPTypes
import ObjectStorage
import RequestBuilder
import ResumableUploads
import TestSupport
import Testing

/// Multipart uploads to moto, with signatures, payload hashes and chunk
/// signatures checked (Tests/Servers/s3_server.py), through the public API.
@Suite(.serialized) struct S3MultipartUploadTests {
    static let partSize = S3MultipartUpload.minimumPartSize

    static func digest(_ data: Data) -> String {
        SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
    }

    @Test func uploadsAFileInParallelPartsThatReadBackExactly() async throws {
        let store = try await S3TestStore.make()
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: Int(Self.partSize) * 3 + 12_345)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "videos/ünï code/clip #1.bin")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Self.partSize, concurrency: 3)
        #expect(upload.partCount == 4)
        let reports = ProgressLog()
        let result = try await upload.send(with: store.s3, progress: { reports.append($0) })
        #expect(result.partsResumed == 0)
        #expect(result.eTag?.hasSuffix("-4\"") == true)
        let object = try await store.object(location)
        #expect(object.body.count == fixture.size)
        #expect(Self.digest(object.body) == fixture.sha256)
        #expect(reports.last == UploadProgress(bytesSent: Int64(fixture.size), totalBytes: Int64(fixture.size)))
        // The final figure once, not once per part that told it again.
        #expect(reports.values.filter { $0.bytesSent == Int64(fixture.size) }.count == 1, "\(reports.values.suffix(6))")
        #expect(try await store.unfinishedUploads(in: bucket).contains("<Upload>") == false)
    }

    /// Uploads sharing a client with `maximumConcurrentRequests` share its
    /// places: two uploads of 3 parts, each 3 at once, and a `PUT` have at
    /// most 2 requests in flight together (6 without it), and every
    /// object arrives whole.
    @Test func uploadsSharingAClientShareItsRequestLimit() async throws {
        let counter = InFlightCounter()
        let store = try await S3TestStore.make(middleware: [counter])
        let bucket = try await store.makeBucket()
        var s3 = store.s3
        s3.maximumConcurrentRequests = 2
        let client = s3
        #expect(client.maximumConcurrentRequests == 2)
        let fixtures = try (0..<2).map { _ in try UploadFixture(size: Int(Self.partSize) * 2 + 1_000) }
        defer { fixtures.forEach { $0.remove() } }
        let locations = try (0..<2).map { try S3Location(bucket: bucket, key: "shared/\($0).bin") }
        let small = try S3Location(bucket: bucket, key: "shared/small.txt")
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (fixture, location) in zip(fixtures, locations) {
                let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Self.partSize, concurrency: 3)
                group.addTask { _ = try await upload.send(with: client) }
            }
            group.addTask { try await client.putObject(.text("small"), at: small) }
            try await group.waitForAll()
        }
        #expect((1...2).contains(counter.peak), "\(counter.peak) requests in flight at once")
        for (fixture, location) in zip(fixtures, locations) {
            #expect(Self.digest(try await store.object(location).body) == fixture.sha256)
        }
        #expect(String(decoding: try await store.object(small).body, as: UTF8.self) == "small")
    }

    @Test func resumesFromThePartsTheStoreHolds() async throws {
        let store = try await S3TestStore.make()
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: Int(Self.partSize) * 4 + 1)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "resumed.bin")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Self.partSize, concurrency: 1)
        let saved = StateBox()
        let twoPartsIn = AsyncStream<Void>.makeStream()
        // The first run is cancelled once two parts are in: the parts stay, as after a crash.
        // Past two parts' bytes, not at them: one at a time, part 3 begins only
        // once the store has answered for part 2 (at them, part 2 may be
        // handed over but not yet taken, and a busy store loses it to the cancel).
        let first = Task {
            try await upload.send(with: store.s3, stateChanged: { saved.set($0) }, progress: { update in
                if update.bytesSent > 2 * Self.partSize { twoPartsIn.continuation.yield() }
            })
        }
        for await _ in twoPartsIn.stream { break }
        first.cancel()
        let outcome = await first.result
        #expect(throws: (any Error).self) { try outcome.get() }
        let state = try #require(saved.value)
        #expect(try await store.unfinishedUploads(in: bucket).contains(state.uploadID))

        let result = try await upload.send(with: store.s3, resumingFrom: state)
        #expect(result.partsResumed >= 2)
        #expect(Self.digest(try await store.object(location).body) == fixture.sha256)
    }

    @Test func refusesToResumeAChangedFileBeforeSendingAnything() async throws {
        let store = try await S3TestStore.make()
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: Int(Self.partSize) + 10)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "changed.bin")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Self.partSize)
        let state = S3MultipartUpload.State(uploadID: "not-sent", bucket: bucket, key: "changed.bin", partSize: Self.partSize, body: try BodyIdentity(of: .file(at: fixture.file)), checksumAlgorithm: .crc32)
        let handle = try FileHandle(forWritingTo: fixture.file)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data([1]))
        try handle.close()
        let changed = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Self.partSize)
        let error = await #expect(throws: S3Error.self) { try await changed.send(with: store.s3, resumingFrom: state) }
        #expect(error?.code == .bodyChanged)
        #expect(error?.description.contains(fixture.file.lastPathComponent) == true)
        _ = upload
    }

    @Test func abortsWhenAPartIsRefusedSoNoPartsAreLeft() async throws {
        // A middleware that spoils part 2's payload hash: the store refuses
        // that part (its hash does not match the bytes), for good.
        let store = try await S3TestStore.make(middleware: [SpoilPart(number: 2)])
        let bucket = try await store.makeBucket()
        let fixture = try UploadFixture(size: Int(Self.partSize) * 2 + 7)
        defer { fixture.remove() }
        let location = try S3Location(bucket: bucket, key: "refused.bin")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Self.partSize, concurrency: 2)
        let error = await #expect(throws: S3Error.self) { try await upload.send(with: store.s3) }
        #expect(error?.code == .serviceError)
        #expect(error?.status?.code == 400 || error?.status?.code == 403)
        #expect(error?.description.contains("UploadPart 2") == true)
        #expect(try await store.unfinishedUploads(in: bucket).contains("<Upload>") == false)
    }

    @Test func reportsTheStoresRefusalWithItsCode() async throws {
        let store = try await S3TestStore.make()
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let location = try S3Location(bucket: "no-such-bucket-here", key: "a.bin")
        let error = await #expect(throws: S3Error.self) { try await store.s3.putObject(.file(at: fixture.file), at: location) }
        #expect(error?.serviceCode == "NoSuchBucket")
        #expect(error?.status?.code == 404)
        #expect(error?.description.contains("s3://no-such-bucket-here/a.bin") == true)
    }

    @Test func aWrongSecretIsRefusedBySignature() async throws {
        let store = try await S3TestStore.make(secret: "not-the-secret")
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let error = await #expect(throws: S3Error.self) {
            try await store.s3.putObject(.file(at: fixture.file), at: S3Location(bucket: "any-bucket", key: "a"))
        }
        #expect(error?.serviceCode == "SignatureDoesNotMatch")
    }

    @Test func putsASmallObjectWithItsSniffedType() async throws {
        let store = try await S3TestStore.make()
        let bucket = try await store.makeBucket()
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + Array(repeating: 7, count: 100)
        let file = FileManager.default.temporaryDirectory.appending(path: "s3-\(UUID().uuidString)")
        try Data(png).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let location = try S3Location(bucket: bucket, key: "pictures/a")
        try await store.s3.putObject(.file(at: file), at: location)
        let object = try await store.object(location)
        #expect(Array(object.body) == png)
        #expect(object.headerFields[.contentType] == "image/png")
    }

    @Test(arguments: [0, 4_999_999, 5 * 1024 * 1024 * 1024 + 1] as [Int64])
    func refusesPartSizesOutsideS3sRange(_ size: Int64) throws {
        let error = #expect(throws: S3Error.self) {
            try S3MultipartUpload(body: .bytes([1, 2, 3]), to: S3Location(bucket: "abc", key: "k"), partSize: size)
        }
        #expect(error?.code == .invalidArgument)
    }

    @Test func raisesThePartSizeToKeepTenThousandParts() throws {
        // 100 GB of zero-cost bytes: a body of known length from a source never read here.
        let length: Int64 = 100_000_000_000
        let body = RequestBody(contentType: nil, length: length, isReplayable: true) { throw CancellationError() }
        let upload = try S3MultipartUpload(body: body, to: S3Location(bucket: "abc", key: "k"), partSize: S3MultipartUpload.minimumPartSize)
        #expect(upload.partSize >= length / 10_000)
        #expect(upload.partSize % (1024 * 1024) == 0)
        #expect(upload.partCount <= 10_000)
    }

    @Test func refusesAStream() throws {
        let body = RequestBody.stream(AsyncStream<[UInt8]> { $0.finish() }, length: 10)
        #expect(throws: S3Error.self) { try S3MultipartUpload(body: body, to: S3Location(bucket: "abc", key: "k")) }
    }
}

/// Changes part `number`'s payload hash, so the store's check fails.
struct SpoilPart: RequestMiddleware {
    let number: Int
    func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        guard request.head.path?.contains("partNumber=\(number)&") == true else { return try await next(request) }
        return try await next(request.updating { $0.headerFields[HTTPField.Name("x-amz-content-sha256")!] = String(repeating: "0", count: 64) })
    }
}

/// Progress reports, in order.
final class ProgressLog: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: [UploadProgress] = []
    func append(_ value: UploadProgress) { lock.withLock { stored.append(value) } }
    var values: [UploadProgress] { lock.withLock { stored } }
    var last: UploadProgress? { values.last }
}

/// The last state handed to `stateChanged`.
final class StateBox: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: S3MultipartUpload.State?
    func set(_ state: S3MultipartUpload.State) { lock.withLock { stored = state } }
    var value: S3MultipartUpload.State? { lock.withLock { stored } }
}

/// Counts the requests between it and their response heads, and the most at once.
final class InFlightCounter: RequestMiddleware, @unchecked Sendable {
    private let lock = NSLock()
    private var current = 0
    private var highest = 0
    var peak: Int { lock.withLock { highest } }
    func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        lock.withLock {
            current += 1
            highest = max(highest, current)
        }
        defer { lock.withLock { current -= 1 } }
        return try await next(request)
    }
}
