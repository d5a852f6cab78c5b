import AWSSigning
import Foundation
import HTTPBody
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import ResumableUploads
import TestSupport
import Testing

/// A multipart upload through the public API against a store on a raw
/// socket that answers as a hostile or broken S3 could: a part list that
/// pages on and on, one that never moves on, an `<Error>` inside a `200`.
@Suite struct S3HostileStoreTests {
    static let partSize = S3MultipartUpload.minimumPartSize

    static func client(_ server: RawResponseServer) -> S3Client {
        S3Client(
            endpoint: S3Endpoint(url: server.url(path: ""), region: "us-east-1", addressing: .path),
            credentials: AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret"),
            transport: AsyncHTTPClientTransport(),
            retry: RetryMiddleware(maximumAttempts: 2, initialBackoff: .milliseconds(10), retriesNonIdempotentRequests: true)
        )
    }

    /// A `200` that every step can read: an ETag for a part, and a page of a
    /// part list that lists nothing and points `next` on (truncated when `next` is not nil).
    static func page(next: Int?) -> RawResponseServer.Reply {
        let body = "<ListPartsResult><Bucket>b</Bucket><Key>k</Key><UploadId>up-1</UploadId>"
            + (next.map { "<IsTruncated>true</IsTruncated><NextPartNumberMarker>\($0)</NextPartNumberMarker>" } ?? "<IsTruncated>false</IsTruncated>")
            + "</ListPartsResult>"
        return .text("HTTP/1.1 200 OK", headers: ["ETag: \"e\"", "Content-Length: \(body.utf8.count)"], body: body)
    }

    static func methods(_ server: RawResponseServer) -> [String] {
        server.receivedHeads.map { String(decoding: $0.prefix { $0 != UInt8(ascii: " ") }, as: UTF8.self) }
    }

    @Test func thePartListIsReadNoFurtherThanTheFilesParts() async throws {
        // Pages that each move the marker on by one, for 50 pages: the file
        // has 2 parts, so pages past part 2 cannot list one it needs.
        let server = try await RawResponseServer.start { index in Self.page(next: index < 50 ? index + 1 : nil) }
        let fixture = try UploadFixture(size: Int(Self.partSize) + 10)
        defer { fixture.remove() }
        let location = try S3Location(bucket: "bkt", key: "k")
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: location, partSize: Self.partSize, concurrency: 1)
        let state = S3MultipartUpload.State(
            uploadID: "up-1", bucket: "bkt", key: "k", partSize: Self.partSize, body: try BodyIdentity(of: .file(at: fixture.file)),
            checksumAlgorithm: .crc32
        )
        let result = try await upload.send(with: Self.client(server), resumingFrom: state)
        #expect(result.partsResumed == 0)
        #expect(Self.methods(server) == ["GET", "GET", "PUT", "PUT", "POST"])
        try await server.stop()
    }

    @Test func aTruncatedPartListThatDoesNotMoveOnIsRefused() async throws {
        let server = try await RawResponseServer.start { _ in Self.page(next: 0) }
        let fixture = try UploadFixture(size: Int(Self.partSize) + 10)
        defer { fixture.remove() }
        var upload = try S3MultipartUpload(body: .file(at: fixture.file), to: S3Location(bucket: "bkt", key: "k"), partSize: Self.partSize)
        upload.abortsOnFailure = false
        let state = S3MultipartUpload.State(
            uploadID: "up-1", bucket: "bkt", key: "k", partSize: Self.partSize, body: try BodyIdentity(of: .file(at: fixture.file)),
            checksumAlgorithm: .crc32
        )
        let error = await #expect(throws: S3Error.self) { try await upload.send(with: Self.client(server), resumingFrom: state) }
        #expect(error?.code == .invalidResponse)
        #expect(error?.description.contains("ListParts") == true, "\(error?.description ?? "")")
        #expect(Self.methods(server) == ["GET"])
        try await server.stop()
    }

    @Test func anErrorInsideA200ToAPartIsAFailureNotAPart() async throws {
        // S3 answers some requests 200 and then an error in the body; a part
        // "taken" so (with an ETag) must not be completed.
        let error = "<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"
        let server = try await RawResponseServer.start { index in
            if index == 0 {
                let body = "<InitiateMultipartUploadResult><UploadId>up-1</UploadId></InitiateMultipartUploadResult>"
                return .text("HTTP/1.1 200 OK", headers: ["Content-Length: \(body.utf8.count)"], body: body)
            }
            return .text("HTTP/1.1 200 OK", headers: ["ETag: \"e\"", "Content-Length: \(error.utf8.count)"], body: error)
        }
        let fixture = try UploadFixture(size: Int(Self.partSize) + 10)
        defer { fixture.remove() }
        let upload = try S3MultipartUpload(body: .file(at: fixture.file), to: S3Location(bucket: "bkt", key: "k"), partSize: Self.partSize, concurrency: 1)
        let thrown = await #expect(throws: S3Error.self) { try await upload.send(with: Self.client(server)) }
        #expect(thrown?.code == .serviceError)
        #expect(thrown?.serviceCode == "AccessDenied")
        #expect(thrown?.description.contains("UploadPart 1") == true, "\(thrown?.description ?? "")")
        // Refused at part 1: no completion, and the upload is aborted.
        #expect(Self.methods(server) == ["POST", "PUT", "DELETE"])
        try await server.stop()
    }
}
