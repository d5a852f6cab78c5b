import Foundation
import TestSupport
import Testing

/// `uploader s3://BUCKET/KEY FILE` and `--presigned-post` as docs/s3.md
/// writes them, against moto with signatures checked
/// (Tests/Servers/s3_server.py); boto3 reads back what was stored
/// (Tests/Servers/s3_client.py).
@Suite(.serialized) struct UploaderObjectStorageTests {
    private static let shared = Task { try await MotoServer.start() }

    /// What boto3 read back of an object.
    struct Stored: Decodable {
        let size: Int
        let sha256: String
        let contentType: String?
        let eTag: String?
        let checksumCRC32: String?
        let metadata: [String: String]
    }

    let server: MotoServer
    let boto3: Boto3Client
    let bucket: String

    init() async throws {
        server = try await Self.shared.value
        boto3 = Boto3Client(server: server)
        bucket = try await boto3.makeBucket(prefix: "cli")
    }

    var environment: [String: String] { boto3.environment }

    func stored(_ key: String) async throws -> Stored {
        try JSONDecoder().decode(Stored.self, from: Data(try await boto3("get", bucket, key).utf8))
    }

    func upload(_ arguments: [String], environment extra: [String: String] = [:]) async throws -> UploaderProcess.Result {
        try await UploaderProcess.run(
            arguments + ["--endpoint-url", server.endpoint.absoluteString, "--no-progress"],
            environment: environment.merging(extra) { $1 }
        )
    }

    @Test func aSmallFileGoesInOnePutUnderItsOwnNameWithItsSniffedType() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "s3-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "notes")  // no extension: the type comes from the content
        let text = String(repeating: "A line of plain notes.\n", count: 4_000)
        try Data(text.utf8).write(to: file)
        let result = try await upload(["s3://\(bucket)/notes/", file.path])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText == "upload: \(file.path) to s3://\(bucket)/notes/notes\n")
        let object = try await stored("notes/notes")
        #expect(object.size == text.utf8.count)
        #expect(object.contentType?.hasPrefix("text/plain") == true, "\(object.contentType ?? "none")")
    }

    /// Header items go with the object as `-H` does, and the run prints the
    /// AWS CLI's line (a relative path from `./`); the store's answer is
    /// for `-o` and `-v`.
    @Test func headerItemsGoWithTheObjectAndTheLineIsTheAWSCLIs() async throws {
        let scratch = try ScratchFolder()
        try scratch.file("x.txt", "plain words\n")
        let result = try await UploaderProcess.run(
            ["s3://\(bucket)/items/x", "x.txt", "Content-Type:text/x-foo", "x-amz-meta-owner:ada", "--endpoint-url", server.endpoint.absoluteString, "--no-progress"],
            environment: environment, currentDirectory: scratch.url
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText == "upload: ./x.txt to s3://\(bucket)/items/x\n")
        let object = try await stored("items/x")
        #expect(object.contentType == "text/x-foo")
        #expect(object.metadata == ["owner": "ada"])
        let empty = try await UploaderProcess.run(
            ["s3://\(bucket)/items/y", "x.txt", "Content-Type:", "--endpoint-url", server.endpoint.absoluteString],
            environment: environment, currentDirectory: scratch.url
        )
        #expect(empty.status == 2)
        #expect(empty.standardError == "uploader: 'Content-Type:': an empty header item removes a default header, and an s3:// upload adds none; drop it\n")
    }

    /// `-v` shows each request of a multipart upload, signature redacted (issue 24.14).
    @Test func verboseShowsEveryRequestOfAMultipartUpload() async throws {
        let fixture = try UploadFixture(size: 5 * 1024 * 1024 + 99)
        defer { fixture.remove() }
        let result = try await upload([
            "-v", "s3://\(bucket)/verbose.bin", fixture.file.path, "--part-size", "5M", "--multipart-threshold", "5M",
            "--state-dir", fixture.folder.appending(path: "state").path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let shown = result.standardError
        #expect(shown.contains("POST /\(bucket)/verbose.bin?uploads"), "\(shown)")
        #expect(shown.components(separatedBy: "PUT /\(bucket)/verbose.bin?partNumber=").count == 3, "\(shown)")
        #expect(shown.contains("POST /\(bucket)/verbose.bin?uploadId="), "\(shown)")
        #expect(shown.contains("Authorization: <redacted>\r\n"))
        #expect(!shown.contains("Signature="), "\(shown)")
        #expect(shown.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 5, "\(shown)")
        // S3's root is CompleteMultipartUploadResult; moto's, ...Response.
        #expect(shown.contains("<CompleteMultipartUpload"), "\(shown)")
        #expect(result.outputText == "upload: \(fixture.file.path) to s3://\(bucket)/verbose.bin\n")
    }

    @Test func aLargeFileGoesAsParallelPartsAndPrintsTheResult() async throws {
        let fixture = try UploadFixture(size: 5 * 1024 * 1024 * 3 + 99)
        defer { fixture.remove() }
        let result = try await upload([
            "s3://\(bucket)/big.bin", fixture.file.path, "--part-size", "5M", "--concurrency", "3", "--multipart-threshold", "5M",
            "-H", "x-amz-meta-origin: test", "--state-dir", fixture.folder.appending(path: "state").path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText == "upload: \(fixture.file.path) to s3://\(bucket)/big.bin\n")
        let object = try await stored("big.bin")
        #expect(object.sha256 == fixture.sha256)
        #expect(object.eTag?.hasSuffix("-4\"") == true)
        // Created with CRC-32, as boto3 does: the store keeps the parts' composite.
        #expect(object.checksumCRC32?.hasSuffix("-4") == true, "\(object.checksumCRC32 ?? "no CRC-32 kept")")
        #expect(try await boto3.unfinished(in: bucket).isEmpty)
    }

    @Test("Killed with SIGKILL mid-upload, the same command sends only the missing parts")
    func killedAndResumed() async throws {
        let size = KilledMultipartUpload.partSize * 6 + 99
        let fixture = try UploadFixture(size: size)
        defer { fixture.remove() }
        let killed = KilledMultipartUpload(
            boto3: boto3, bucket: bucket, key: "resumed.bin", size: size, stateDirectory: fixture.folder.appending(path: "state")
        )
        try await killed.run(["s3://\(bucket)/resumed.bin", fixture.file.path])
        #expect(try await stored("resumed.bin").sha256 == fixture.sha256)
    }

    @Test func fillsAPresignedPostFormFromBoto3() async throws {
        let fixture = try UploadFixture(size: 2_000, name: "form.bin")
        defer { fixture.remove() }
        let form = fixture.folder.appending(path: "form.json")
        try Data(try await boto3("presigned-post", bucket, "posted/${filename}").utf8).write(to: form)
        // No credentials: the form carries its own signature.
        let result = try await UploaderProcess.run(["--presigned-post", form.path, fixture.file.path, "--no-progress"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try await stored("posted/form.bin").sha256 == fixture.sha256)
    }

    @Test func aRefusedPresignedPostExitsFourAndWritesTheStoresAnswer() async throws {
        let fixture = try UploadFixture(size: 100, name: "refused.bin")
        defer { fixture.remove() }
        var form = try JSONSerialization.jsonObject(with: Data(try await boto3("presigned-post", bucket, "posted/${filename}").utf8)) as? [String: Any]
        var fields = try #require(form?["fields"] as? [String: String])
        fields["x-amz-signature"] = String(repeating: "0", count: 64)  // moto refuses the policy's signature
        form?["fields"] = fields
        let formFile = fixture.folder.appending(path: "form.json")
        try JSONSerialization.data(withJSONObject: form ?? [:]).write(to: formFile)
        let output = fixture.folder.appending(path: "answer.xml")
        let result = try await UploaderProcess.run(["--presigned-post", formFile.path, fixture.file.path, "-o", output.path, "--no-progress"])
        #expect(result.status == 4, "\(result.standardError)")
        #expect(result.standardError.contains("403"), "\(result.standardError)")
        let answer = try String(contentsOf: output, encoding: .utf8)
        #expect(answer.contains("<Error>") && answer.contains("SignatureDoesNotMatch"), "\(answer)")
    }

    @Test func outputNamingThePresignedFormIsBadInputAndSendsNothing() async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 204 No Content") }
        let fixture = try UploadFixture(size: 100, name: "photo.bin")
        defer { fixture.remove() }
        let formFile = fixture.folder.appending(path: "form.json")
        let form = #"{"url": "\#(server.url(path: "/bucket").absoluteString)", "fields": {"key": "k/${filename}", "policy": "cG9saWN5"}}"#
        try Data(form.utf8).write(to: formFile)
        let result = try await UploaderProcess.run(["--presigned-post", formFile.path, fixture.file.path, "-o", formFile.path, "--no-progress"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("is also an input"), "\(result.standardError)")
        #expect(try String(contentsOf: formFile, encoding: .utf8) == form)
        #expect(server.requestCount == 0)
        try await server.stop()
    }

    @Test func theStoresRefusalExitsFourWithItsCode() async throws {
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let result = try await upload(["s3://no-such-bucket-anywhere/k", fixture.file.path])
        #expect(result.status == 4)
        #expect(result.standardError.contains("NoSuchBucket"), "\(result.standardError)")
        let wrong = try await upload(["s3://\(bucket)/k", fixture.file.path], environment: ["AWS_SECRET_ACCESS_KEY": "wrong"])
        #expect(wrong.status == 4)
        #expect(wrong.standardError.contains("SignatureDoesNotMatch"), "\(wrong.standardError)")
    }

    @Test func dryRunWritesTheSignedPut() async throws {
        let fixture = try UploadFixture(size: 10, name: "a.txt")
        defer { fixture.remove() }
        let result = try await upload(["s3://\(bucket)/a.txt", fixture.file.path, "--dry-run"])
        #expect(result.status == 0, "\(result.standardError)")
        let text = result.outputText
        #expect(text.hasPrefix("PUT /\(bucket)/a.txt HTTP/1.1\r\n"))
        #expect(text.contains("\r\nAuthorization: AWS4-HMAC-SHA256 Credential=\(server.credentials.accessKeyID)/"))
        #expect(text.contains("\r\nx-amz-content-sha256: "))
        #expect(text.contains("\r\nx-amz-checksum-crc32: "), "the dry run shows the checksum the upload sends")
    }

    @Test(arguments: [
        (["s3://Bad_Bucket/k", "FILE"], "bucket name"),
        (["s3://bucket-ok/k", "-"], "standard input"),
        (["s3://bucket-ok/k", "FILE", "--part-size", "1M"], "--part-size"),
        (["s3://bucket-ok/k", "FILE", "--concurrency", "0"], "--concurrency"),
        (["s3://bucket-ok/k", "FILE", "--gzip"], "--gzip"),
        (["s3://bucket-ok/k"], "no file given"),
        (["s3://bucket-ok/k", "FILE", "FILE"], "one file"),
        (["http://localhost:1/up", "--part-size", "8M"], "applies to s3:// uploads"),
        (["s3://bucket-ok/k", "/no/such/file"], "/no/such/file"),
    ])
    func badInputExitsTwoAndSendsNothing(_ arguments: [String], _ named: String) async throws {
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let result = try await UploaderProcess.run(
            arguments.map { $0 == "FILE" ? fixture.file.path : $0 } + ["--endpoint-url", "http://127.0.0.1:1"],
            environment: environment
        )
        #expect(result.status == 2, "\(arguments): \(result.standardError)")
        #expect(result.standardError.contains(named), "\(result.standardError)")
    }

    @Test func missingCredentialsAreNamed() async throws {
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let result = try await UploaderProcess.run(
            ["s3://bucket-ok/k", fixture.file.path, "--endpoint-url", "http://127.0.0.1:1"],
            environment: ["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "x"]
        )
        #expect(result.status == 2)
        #expect(result.standardError.contains("AWS_ACCESS_KEY_ID"), "\(result.standardError)")
    }
}
