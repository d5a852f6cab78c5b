import Foundation
import TestSupport
import Testing

/// boto3 (`Tests/Servers/s3_client.py`) as the IAM user of a moto server:
/// the object storage tests' independent S3 client, which makes buckets and
/// reads back what the uploader stored.
struct Boto3Client: Sendable {
    /// An unfinished multipart upload, as `parts` lists it.
    struct Unfinished: Decodable {
        let key: String
        /// The bytes of the parts the store holds.
        let bytes: Int
    }

    private struct Uploads: Decodable {
        let uploads: [Unfinished]
    }

    let server: MotoServer

    /// The user's credentials and the region, as the uploader and boto3 read them.
    var environment: [String: String] {
        ["AWS_ACCESS_KEY_ID": server.credentials.accessKeyID, "AWS_SECRET_ACCESS_KEY": server.credentials.secretAccessKey, "AWS_REGION": server.region]
    }

    /// Runs one command of s3_client.py (its docstring lists them) and returns
    /// its JSON; a failing command is an issue of the calling test.
    func callAsFunction(_ arguments: String..., sourceLocation: SourceLocation = #_sourceLocation) async throws -> String {
        let python = try await TestPython.withServerPackages()
        let script = TestPackage.serverScript("s3_client.py").path
        let quoted = ([python, script] + arguments).map { "'\($0)'" }.joined(separator: " ")
        let exports = (environment.map { "\($0.key)='\($0.value)'" } + ["S3_ENDPOINT='\(server.endpoint.absoluteString)'"]).joined(separator: " ")
        let result = try await UploaderProcess.runShell("\(exports) \(quoted)")
        #expect(result.status == 0, "s3_client.py \(arguments): \(result.standardError)", sourceLocation: sourceLocation)
        return result.outputText
    }

    /// Makes a bucket of its own for one test: `prefix`, a dash and a random tail.
    func makeBucket(prefix: String) async throws -> String {
        let bucket = "\(prefix)-\(UUID().uuidString.lowercased().prefix(18))"
        _ = try await self("make-bucket", bucket)
        return bucket
    }

    /// The bucket's unfinished multipart uploads.
    func unfinished(in bucket: String, sourceLocation: SourceLocation = #_sourceLocation) async throws -> [Unfinished] {
        try JSONDecoder().decode(Uploads.self, from: Data(try await self("parts", bucket, sourceLocation: sourceLocation).utf8)).uploads
    }
}
