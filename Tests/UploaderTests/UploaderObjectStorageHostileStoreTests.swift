import Foundation
import TestSupport
import Testing

/// `uploader s3://BUCKET/KEY FILE` against a store on a raw socket that
/// answers a multipart upload as a hostile or unlucky S3 can: an `<Error>`
/// inside a `200 OK`. One part at a time (`--concurrency 1`), so the store's
/// nth answer is to a known step: 0 creates, 1 and 2 take the parts, 3 on
/// completes (and aborts).
@Suite struct UploaderObjectStorageHostileStoreTests {
    static let environment = ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_REGION": "us-east-1"]
    static let partSize = 5 * 1024 * 1024

    /// A two-part upload's first three steps answered as S3 does; every later one with `completion`.
    static func store(completion: String) async throws -> RawResponseServer {
        try await RawResponseServer.start { index in
            switch index {
            case 0:
                let body = "<InitiateMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><UploadId>up-1</UploadId></InitiateMultipartUploadResult>"
                return .text("HTTP/1.1 200 OK", headers: ["Content-Length: \(body.utf8.count)"], body: body)
            case 1, 2:
                return .text("HTTP/1.1 200 OK", headers: ["ETag: \"part-\(index)\"", "Content-Length: 0"])
            default:
                return .text("HTTP/1.1 200 OK", headers: ["Content-Length: \(completion.utf8.count)"], body: completion)
            }
        }
    }

    static func error(_ code: String) -> String {
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Error><Code>\(code)</Code><Message>It went wrong.</Message><RequestId>R1</RequestId></Error>"
    }

    /// The request lines the store saw, in order.
    static func requestLines(_ server: RawResponseServer) -> [String] {
        server.receivedHeads.map { String(decoding: $0, as: UTF8.self).components(separatedBy: "\r\n").first ?? "" }
    }

    func upload(to server: RawResponseServer, fixture: UploadFixture, _ extra: [String] = []) async throws -> UploaderProcess.Result {
        try await UploaderProcess.run([
            "s3://bkt/k", fixture.file.path, "--endpoint-url", server.url(path: "").absoluteString,
            "--part-size", "5M", "--multipart-threshold", "5M", "--concurrency", "1",
            "--state-dir", fixture.folder.appending(path: "state").path, "--no-progress",
        ] + extra, environment: Self.environment)
    }

    func savedStates(_ fixture: UploadFixture) -> [String] {
        let folder = fixture.folder.appending(path: "state").path
        return ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).filter { $0.hasSuffix(".json") }
    }

    @Test func anInternalErrorInsideA200IsRetriedThenExitsFive() async throws {
        let server = try await Self.store(completion: Self.error("InternalError"))
        let fixture = try UploadFixture(size: Self.partSize + 10)
        defer { fixture.remove() }
        let result = try await upload(to: server, fixture: fixture, ["--retry", "1"])
        #expect(result.status == 5, "\(result.standardError)")
        #expect(result.standardError.contains("CompleteMultipartUpload"), "\(result.standardError)")
        #expect(result.standardError.contains("InternalError"), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
        let completions = Self.requestLines(server).filter { $0.hasPrefix("POST ") && $0.contains("uploadId=up-1") }
        #expect(completions.count == 2, "\(Self.requestLines(server))")
        // As after a 5xx: the parts and the state stay for a rerun.
        #expect(!Self.requestLines(server).contains { $0.hasPrefix("DELETE ") })
        #expect(savedStates(fixture).count == 1)
        try await server.stop()
    }

    @Test func accessDeniedInsideA200ExitsFourAndAbortsTheUpload() async throws {
        let server = try await Self.store(completion: Self.error("AccessDenied"))
        let fixture = try UploadFixture(size: Self.partSize + 10)
        defer { fixture.remove() }
        let result = try await upload(to: server, fixture: fixture, ["--retry", "3"])
        #expect(result.status == 4, "\(result.standardError)")
        #expect(result.standardError.contains("AccessDenied"), "\(result.standardError)")
        let lines = Self.requestLines(server)
        // A refusal is final: one completion, then the upload is aborted and its state dropped.
        #expect(lines.filter { $0.hasPrefix("POST ") && $0.contains("uploadId=up-1") }.count == 1, "\(lines)")
        #expect(lines.last?.hasPrefix("DELETE ") == true, "\(lines)")
        #expect(savedStates(fixture).isEmpty)
        try await server.stop()
    }

    @Test func customerKeyHeadersGoOnEveryStepAndMetadataOnlyOnTheCreation() async throws {
        let completed = "<CompleteMultipartUploadResult><Bucket>b</Bucket><Key>k</Key><ETag>\"x-2\"</ETag></CompleteMultipartUploadResult>"
        let server = try await Self.store(completion: completed)
        let fixture = try UploadFixture(size: Self.partSize + 10)
        defer { fixture.remove() }
        let key = Data(repeating: 7, count: 32)
        let perStep = [
            "x-amz-server-side-encryption-customer-algorithm: AES256",
            "x-amz-server-side-encryption-customer-key: \(key.base64EncodedString())",
            "x-amz-server-side-encryption-customer-key-MD5: 3aK5ugMSLZjzjPqfkWnWyA==",
            "x-amz-request-payer: requester",
            "x-amz-expected-bucket-owner: 111122223333",
        ]
        let createOnly = ["x-amz-meta-origin: test", "x-amz-storage-class: STANDARD_IA"]
        let result = try await upload(to: server, fixture: fixture, (perStep + createOnly).flatMap { ["-H", $0] })
        #expect(result.status == 0, "\(result.standardError)")
        let heads = server.receivedHeads.map { String(decoding: $0, as: UTF8.self).lowercased() }
        #expect(heads.count == 4, "\(Self.requestLines(server))")
        for (index, head) in heads.enumerated() {
            for header in perStep {
                #expect(head.contains("\r\n" + header.lowercased() + "\r\n"), "request \(index) lacks \(header): \(head)")
            }
            for header in createOnly {
                #expect(head.contains(header.lowercased()) == (index == 0), "request \(index) and \(header): \(head)")
            }
        }
        try await server.stop()
    }
}
