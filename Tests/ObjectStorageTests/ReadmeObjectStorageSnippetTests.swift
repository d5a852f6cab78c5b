import AWSSigning
import Foundation
import HTTPBody
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// The README's object-store snippets, pasted verbatim into functions so the
/// compiler checks them; a test checks the README still says the same.
@Suite struct ReadmeObjectStorageSnippetTests {
    static let section = "Object stores (S3 and S3-compatible)"

    /// Never called (it would go to AWS): it exists to compile the snippet.
    static func multipart(backupURL: URL, savedState: S3MultipartUpload.State?, save: @escaping @Sendable (S3MultipartUpload.State) throws -> Void) async throws -> S3MultipartUpload.Result {
        // README S3 multipart snippet begins
        let s3 = S3Client(endpoint: .aws(region: "eu-west-1"), credentials: try .environment(), transport: AsyncHTTPClientTransport())
        let upload = try S3MultipartUpload(body: .file(at: backupURL), to: S3Location("s3://backups/backup.tar"), partSize: 16 << 20, concurrency: 4)
        let result = try await upload.send(with: s3, resumingFrom: savedState) { state in try save(state) }
        // README S3 multipart snippet ends
        return result
    }

    /// Never called, as above.
    static func sharedLimit(s3: S3Client) -> S3Client {
        // README S3 shared limit snippet begins
        var shared = s3
        shared.maximumConcurrentRequests = 4   // parts and puts of every upload through `shared`, 4 at a time
        // README S3 shared limit snippet ends
        return shared
    }

    /// Never called, as above.
    static func postPolicy(s3: S3Client, photoURL: URL) throws -> PreparedRequest {
        // README S3 POST policy snippet begins
        let policy = S3PostPolicy(bucket: "avatars", key: "users/42/${filename}", expiration: .now + 600,
                                  conditions: [.contentLengthRange(1...5_000_000), .contentTypeStartsWith("image/")])
        let form = try policy.presignedPost(endpoint: .aws(region: "eu-west-1"), signer: s3.signer)   // url + fields
        let request = try form.request(fileAt: photoURL, extraFields: [.init(name: "Content-Type", value: "image/jpeg")]).build()
        // README S3 POST policy snippet ends
        return request
    }

    /// Never called, as above.
    static func profile(backupURL: URL) async throws {
        // README S3 profile snippet begins
        let aws = try AWSConfiguration.load(profile: "staging")   // nil: $AWS_PROFILE, else "default"
        let staging = S3Client(configuration: aws, transport: AsyncHTTPClientTransport())
        try await staging.putObject(.file(at: backupURL), at: S3Location("s3://backups/backup.tar"))
        // README S3 profile snippet ends
    }

    @Test func readmeShowsTheSnippetsCompiledHere() throws {
        #expect(try ReadmeSnippet.compiled(named: "README S3 multipart snippet", in: #filePath) == ReadmeSnippet.readmeBlock(in: Self.section, at: 0))
        #expect(try ReadmeSnippet.compiled(named: "README S3 shared limit snippet", in: #filePath) == ReadmeSnippet.readmeBlock(in: Self.section, at: 1))
        #expect(try ReadmeSnippet.compiled(named: "README S3 POST policy snippet", in: #filePath) == ReadmeSnippet.readmeBlock(in: Self.section, at: 2))
        #expect(try ReadmeSnippet.compiled(named: "README S3 profile snippet", in: #filePath) == ReadmeSnippet.readmeBlock(in: Self.section, at: 3))
    }
}
