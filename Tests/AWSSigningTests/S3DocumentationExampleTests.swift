import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import Testing

/// The worked examples of the S3 API reference, with the values it
/// publishes: sigv4-header-based-auth (GET object, PUT object, GET bucket
/// lifecycle, list objects), sigv4-query-string-auth (a presigned URL),
/// sigv4-streaming (an aws-chunked upload: seed and chunk signatures) and
/// sigv4-post-example (a POST policy's signature). All use AKIAIOSFODNN7EXAMPLE.
@Suite struct S3DocumentationExampleTests {
    static let credentials = AWSCredentials(accessKeyID: "AKIAIOSFODNN7EXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY")
    static let signer = SigV4Signer(credentials: credentials, region: "us-east-1")
    static let date = Date(timeIntervalSince1970: 1_369_353_600)  // 2013-05-24T00:00:00Z

    static func head(_ method: HTTPRequest.Method, _ path: String, host: String = "examplebucket.s3.amazonaws.com", fields: HTTPFields = [:]) -> HTTPRequest {
        var head = HTTPRequest(method: method, scheme: "https", authority: host, path: path)
        head.headerFields = fields
        return head
    }

    @Test func getObjectWithRange() throws {
        let steps = try Self.signer.signingSteps(
            for: Self.head(.get, "/test.txt", fields: [.range: "bytes=0-9"]), payloadHash: SigV4Signer.emptyPayloadHash, date: Self.date
        )
        #expect(steps.canonicalRequest == """
            GET
            /test.txt

            host:examplebucket.s3.amazonaws.com
            range:bytes=0-9
            x-amz-content-sha256:e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            x-amz-date:20130524T000000Z

            host;range;x-amz-content-sha256;x-amz-date
            e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
            """)
        #expect(steps.stringToSign.hasSuffix("\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972"))
        #expect(steps.authorization == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41")
    }

    @Test func putObjectWithDateAndStorageClass() throws {
        let body = Array("Welcome to Amazon S3.".utf8)
        let hash = PayloadDigest.sha256(of: body).hex
        #expect(hash == "44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072")
        let fields: HTTPFields = [HTTPField.Name("Date")!: "Fri, 24 May 2013 00:00:00 GMT", HTTPField.Name("x-amz-storage-class")!: "REDUCED_REDUNDANCY"]
        // The key is test$file.text: `$` as sent, `%24` in the canonical URI; sent encoded, the same.
        for path in ["/test$file.text", "/test%24file.text"] {
            let steps = try Self.signer.signingSteps(for: Self.head(.put, path, fields: fields), payloadHash: hash, date: Self.date)
            #expect(steps.canonicalRequest.split(separator: "\n")[1] == "/test%24file.text")
            #expect(steps.stringToSign.hasSuffix("\n9e0e90d9c76de8fa5b200d8c849cd5b8dc7a3be3951ddb7f6a76b4158342019d"))
            #expect(steps.signature == "98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd")
        }
    }

    @Test func getBucketLifecycleWithAValuelessParameter() throws {
        let steps = try Self.signer.signingSteps(for: Self.head(.get, "/?lifecycle"), payloadHash: SigV4Signer.emptyPayloadHash, date: Self.date)
        #expect(steps.canonicalRequest.split(separator: "\n", omittingEmptySubsequences: false)[2] == "lifecycle=")
        #expect(steps.signature == "fea454ca298b7da1c68078a5d1bdbfbbe0d65c699e0f91ac7a200a0136783543")
    }

    @Test func listObjectsWithSortedParameters() throws {
        let steps = try Self.signer.signingSteps(for: Self.head(.get, "/?max-keys=2&prefix=J"), payloadHash: SigV4Signer.emptyPayloadHash, date: Self.date)
        #expect(steps.signature == "34b48302e7b5fa45bde8084f4b7868a86f0a534bc59db6670ed5711ef69dc6f7")
    }

    @Test func presignedURL() throws {
        let url = try Self.signer.presignedURL(for: Self.head(.get, "/test.txt"), expiresIn: .seconds(86_400), date: Self.date)
        #expect(url.absoluteString == "https://examplebucket.s3.amazonaws.com/test.txt?X-Amz-Algorithm=AWS4-HMAC-SHA256&X-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524%2Fus-east-1%2Fs3%2Faws4_request&X-Amz-Date=20130524T000000Z&X-Amz-Expires=86400&X-Amz-SignedHeaders=host&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404")
        // Presigning the URL again replaces its signing parameters.
        var again = Self.head(.get, try #require(url.query.map { "/test.txt?\($0)" }))
        again.headerFields = [:]
        #expect(try Self.signer.presignedURL(for: again, expiresIn: .seconds(86_400), date: Self.date) == url)
    }

    /// 66,560 bytes of `a` in chunks of 64 KiB: the seed signature, each
    /// chunk's, and the lengths, as the page gives them.
    @Test func streamedUploadInSignedChunks() async throws {
        let stub = StubTransport()
        let middleware = SigV4Middleware(signer: Self.signer, payload: .streaming(chunkSize: 65_536), now: { Self.date })
        let client = RequestClient(transport: stub, middleware: [middleware])
        let data = [UInt8](repeating: UInt8(ascii: "a"), count: 66_560)
        let body = RequestBody.stream(AsyncStream { continuation in
            continuation.yield(data)
            continuation.finish()
        }, length: 66_560, contentType: nil)
        let request = try HTTPRequestBuilder.put("https://s3.amazonaws.com/examplebucket/chunkObject.txt")
            .headers([HTTPField.Name("x-amz-storage-class")!: "REDUCED_REDUNDANCY"])
            .body(body)
            .build()
        _ = try await client.send(request)

        let sent = try #require(stub.receivedRequests.first)
        let seed = "4f232c4386841ef735655705268965c44a0e4690baa4adea153f7db9fa80a0a9"
        #expect(sent.head.headerFields[.authorization] == "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=content-encoding;content-length;host;x-amz-content-sha256;x-amz-date;x-amz-decoded-content-length;x-amz-storage-class, Signature=\(seed)")
        #expect(sent.head.headerFields[.contentLength] == "66824")
        #expect(sent.head.headerFields[.contentEncoding] == "aws-chunked")
        #expect(sent.head.headerFields[.xAmzDecodedContentLength] == "66560")
        #expect(sent.head.headerFields[.xAmzContentSHA256] == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD")
        var expected = Array("10000;chunk-signature=ad80c730a21e5b8d04586a2213dd63b9a0e99e0e2307b0ade35a65485a288648\r\n".utf8)
        expected += data[..<65_536] + Array("\r\n400;chunk-signature=0055627c9e194cb4542bae2aa5492e3c1575bbb81b612b7d234b86a503ef5497\r\n".utf8)
        expected += data[65_536...] + Array("\r\n0;chunk-signature=b6c6ea8a5354eaf15b3cb7646744f4275b71ea724fed81ceb9323e279d449df9\r\n\r\n".utf8)
        #expect(sent.body == expected)
        #expect(sent.body?.count == 66_824)
    }

    @Test func postPolicySignature() throws {
        let signer = SigV4Signer(credentials: Self.credentials, region: "us-east-1")
        let date = Date(timeIntervalSince1970: 1_451_347_200)  // 2015-12-29T00:00:00Z
        #expect(signer.credential(for: date) == "AKIAIOSFODNN7EXAMPLE/20151229/us-east-1/s3/aws4_request")
        #expect(signer.signature(ofPolicy: Self.examplePolicy, date: date) == "8afdbf4008c03f22c2cd3cdb72e4afbb1f6a588f3255ac628749a66d7f09699e")
    }

    /// The page's policy, base64 (its JSON has CRLF line ends).
    static let examplePolicy = "eyAiZXhwaXJhdGlvbiI6ICIyMDE1LTEyLTMwVDEyOjAwOjAwLjAwMFoiLA0KICAiY29uZGl0aW9ucyI6IFsNCiAgICB7ImJ1Y2tldCI6ICJzaWd2NGV4YW1wbGVidWNrZXQifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRrZXkiLCAidXNlci91c2VyMS8iXSwNCiAgICB7ImFjbCI6ICJwdWJsaWMtcmVhZCJ9LA0KICAgIHsic3VjY2Vzc19hY3Rpb25fcmVkaXJlY3QiOiAiaHR0cDovL3NpZ3Y0ZXhhbXBsZWJ1Y2tldC5zMy5hbWF6b25hd3MuY29tL3N1Y2Nlc3NmdWxfdXBsb2FkLmh0bWwifSwNCiAgICBbInN0YXJ0cy13aXRoIiwgIiRDb250ZW50LVR5cGUiLCAiaW1hZ2UvIl0sDQogICAgeyJ4LWFtei1tZXRhLXV1aWQiOiAiMTQzNjUxMjM2NTEyNzQifSwNCiAgICB7IngtYW16LXNlcnZlci1zaWRlLWVuY3J5cHRpb24iOiAiQUVTMjU2In0sDQogICAgWyJzdGFydHMtd2l0aCIsICIkeC1hbXotbWV0YS10YWciLCAiIl0sDQoNCiAgICB7IngtYW16LWNyZWRlbnRpYWwiOiAiQUtJQUlPU0ZPRE5ON0VYQU1QTEUvMjAxNTEyMjkvdXMtZWFzdC0xL3MzL2F3czRfcmVxdWVzdCJ9LA0KICAgIHsieC1hbXotYWxnb3JpdGhtIjogIkFXUzQtSE1BQy1TSEEyNTYifSwNCiAgICB7IngtYW16LWRhdGUiOiAiMjAxNTEyMjlUMDAwMDAwWiIgfQ0KICBdDQp9"
}
