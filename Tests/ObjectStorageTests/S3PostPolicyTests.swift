import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// Browser-style POST uploads: a policy signed here, a form filled and posted
/// to moto, which checks the policy's signature (Tests/Servers/s3_server.py).
@Suite(.serialized) struct S3PostPolicyTests {
    static func file(_ bytes: [UInt8]) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "post-\(UUID().uuidString).txt")
        try Data(bytes).write(to: file)
        return file
    }

    static func policy(bucket: String, key: String) -> S3PostPolicy {
        S3PostPolicy(bucket: bucket, key: key, expiration: Date() + 600, conditions: [
            .contentLengthRange(1...1_000_000), .successActionStatus(201), .contentType("text/plain"),
        ])
    }

    @Test func aSignedPolicyUploadsTheFileLastInTheForm() async throws {
        let store = try await S3TestStore.make()
        let bucket = try await store.makeBucket()
        let file = try Self.file(Array("hello from a form\n".utf8))
        defer { try? FileManager.default.removeItem(at: file) }
        let post = try Self.policy(bucket: bucket, key: "forms/${filename}").presignedPost(endpoint: store.s3.endpoint, signer: store.s3.signer)
        #expect(post.fields.map(\.name) == [
            "key", "success_action_status", "Content-Type", "x-amz-algorithm", "x-amz-credential", "x-amz-date", "policy", "x-amz-signature",
        ])
        let request = try post.request(fileAt: file).build()
        let response = try await RequestClient(transport: AsyncHTTPClientTransport()).send(request)
        #expect(response.status.code == 201)
        let stored = try await store.object(S3Location(bucket: bucket, key: "forms/\(file.lastPathComponent)"))
        #expect(String(decoding: stored.body, as: UTF8.self) == "hello from a form\n")
        #expect(stored.headerFields[.contentType] == "text/plain")
    }

    @Test func aPolicySignedWithAnotherSecretIsRefused() async throws {
        let store = try await S3TestStore.make()
        let bucket = try await store.makeBucket()
        let file = try Self.file([1, 2, 3])
        defer { try? FileManager.default.removeItem(at: file) }
        let wrong = SigV4Signer(credentials: AWSCredentials(accessKeyID: store.server.credentials.accessKeyID, secretAccessKey: "wrong"), region: store.server.region)
        let post = try Self.policy(bucket: bucket, key: "x").presignedPost(endpoint: store.s3.endpoint, signer: wrong)
        let response = try await RequestClient(transport: AsyncHTTPClientTransport()).send(post.request(fileAt: file).acceptingStatus(.any).build())
        #expect(response.status.code == 403)
        #expect(String(decoding: response.body, as: UTF8.self).contains("SignatureDoesNotMatch"))
    }

    @Test func readsBoto3sPresignedPostJSON() throws {
        let json = """
            {"url": "https://bucket-a.s3.amazonaws.com/", "fields": {"x-amz-signature": "sig", "policy": "cG9s", "key": "uploads/${filename}", "x-amz-date": "20261123T000000Z"}}
            """
        let post = try PresignedPost(json: Data(json.utf8))
        #expect(post.url.absoluteString == "https://bucket-a.s3.amazonaws.com/")
        #expect(post.fields.map(\.name) == ["key", "policy", "x-amz-date", "x-amz-signature"])
    }

    @Test(arguments: [
        ("{}", "url"), (#"{"url": "ftp://x/", "fields": {"key": "k"}}"#, "not an http(s) URL"),
        (#"{"url": "https://x/", "fields": {"policy": "p"}}"#, "no \"key\" field"),
        (#"{"url": "https://x/", "fields": {"key": 5}}"#, "fields.key"), ("not json", "not valid JSON"),
    ])
    func refusesAFormItCannotFill(_ json: String, _ named: String) {
        let error = #expect(throws: S3Error.self) { try PresignedPost(json: Data(json.utf8)) }
        #expect(error?.description.contains(named) == true, "\(error?.description ?? "")")
    }

    @Test func refusesAnExpiredPolicyAndConditionsOnItsOwnFields() throws {
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret"), region: "us-east-1")
        let endpoint = S3Endpoint.aws(region: "us-east-1")
        let expired = S3PostPolicy(bucket: "bucket", key: "k", expiration: Date() - 1)
        #expect(throws: S3Error.self) { try expired.presignedPost(endpoint: endpoint, signer: signer) }
        let meddling = S3PostPolicy(bucket: "bucket", key: "k", expiration: Date() + 60, conditions: [.field("policy", equals: "x")])
        let error = #expect(throws: S3Error.self) { try meddling.presignedPost(endpoint: endpoint, signer: signer) }
        #expect(error?.description.contains("'policy'") == true)
        let badBucket = S3PostPolicy(bucket: "Bad_Bucket", key: "k", expiration: Date() + 60)
        #expect(throws: S3Error.self) { try badBucket.presignedPost(endpoint: endpoint, signer: signer) }
    }

    @Test func thePolicyDocumentIsTheJSONS3Reads() throws {
        let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKID", secretAccessKey: "secret", sessionToken: "token"), region: "eu-west-1")
        var policy = S3PostPolicy(bucket: "bucket", key: "users/\"q\"/a", expiration: Date(timeIntervalSince1970: 1_800_000_000))
        policy.conditions = [.keyStartsWith("users/"), .contentLengthRange(0...10), .contentTypeStartsWith("image/")]
        let date = Date(timeIntervalSince1970: 1_799_990_000)
        let post = try policy.presignedPost(endpoint: .aws(region: "eu-west-1"), signer: signer, date: date)
        let encoded = try #require(post.fields.first { $0.name == "policy" }?.value)
        let document = try #require(Data(base64Encoded: encoded))
        let object = try JSONSerialization.jsonObject(with: document) as? [String: Any]
        #expect(object?["expiration"] as? String == "2027-01-15T08:00:00.000Z")
        let conditions = try #require(object?["conditions"] as? [Any])
        // key prefix, length, type prefix, bucket, algorithm, credential, date, token (botocore's order)
        #expect(conditions.count == 8)
        #expect((conditions[0] as? [String]) == ["starts-with", "$key", "users/"])
        #expect((conditions[3] as? [String: String]) == ["bucket": "bucket"])
        #expect(post.fields.contains { $0.name == "x-amz-security-token" && $0.value == "token" })
        #expect(post.fields.first?.value == "users/\"q\"/a")
        #expect(post.url.absoluteString == "https://bucket.s3.eu-west-1.amazonaws.com/")
    }

    /// The same form asked of boto3's `generate_presigned_post`: the same
    /// conditions, in botocore's order, and the same fields. A key ending in
    /// `${filename}` is conditioned by its prefix, since S3 checks the key
    /// after putting the file's name in.
    @Test(arguments: ["avatars/${filename}", "avatars/fixed.png"])
    func writesTheConditionsBotocoreWrites(_ key: String) async throws {
        let oracle = try await BotocoreSigner()
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "token")
        let signer = SigV4Signer(credentials: credentials, region: "eu-west-1")
        let policy = S3PostPolicy(bucket: "avatars", key: key, expiration: date + 600, conditions: [
            .field("acl", equals: "public-read"), .contentLengthRange(1...1_000), .contentTypeStartsWith("image/"),
        ])
        let ours = try policy.presignedPost(endpoint: .aws(region: "eu-west-1"), signer: signer, date: date)
        let theirs = try await oracle.presignedPost(.init(
            bucket: "avatars", key: key, fields: ["acl": "public-read"],
            conditions: [.object("acl", "public-read"), .array(["content-length-range"], numbers: [1, 1_000]), .array(["starts-with", "$Content-Type", "image/"], numbers: [])],
            expires: 600, accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret", sessionToken: "token", region: "eu-west-1",
            date: BotocoreSigner.amzDate(date)
        ))
        await oracle.stop()

        func document(_ fields: [String: String]) throws -> [String: Any] {
            let encoded = try #require(fields["policy"])
            let data = try #require(Data(base64Encoded: encoded))
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        var ourFields: [String: String] = [:]
        for field in ours.fields { ourFields[field.name] = field.value }
        let ourPolicy = try document(ourFields)
        let theirPolicy = try document(theirs.fields)
        let ourConditions = try JSONSerialization.data(withJSONObject: try #require(ourPolicy["conditions"]), options: [.sortedKeys])
        let theirConditions = try JSONSerialization.data(withJSONObject: try #require(theirPolicy["conditions"]), options: [.sortedKeys])
        #expect(String(decoding: ourConditions, as: UTF8.self) == String(decoding: theirConditions, as: UTF8.self))
        // The same instant; S3's examples write milliseconds, botocore none.
        #expect((ourPolicy["expiration"] as? String)?.replacingOccurrences(of: ".000Z", with: "Z") == theirPolicy["expiration"] as? String)
        let unsigned = { (fields: [String: String]) in fields.filter { $0.key != "policy" && $0.key != "x-amz-signature" } }
        #expect(unsigned(ourFields) == unsigned(theirs.fields))
    }
}
