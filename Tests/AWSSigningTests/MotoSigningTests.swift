import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// Requests signed by `SigV4Middleware` against an S3-compatible server
/// (moto, started by `MotoServer`) that checks signatures, payload hashes and
/// aws-chunked chunk signatures as S3 does: each payload mode stores the
/// object, a presigned URL fetches it with no header, and a wrong secret is
/// refused.
@Suite struct MotoSigningTests {
    /// Sends `body` to `path` with `payload` signing, through AsyncHTTPClient.
    static func send(
        _ method: HTTPRequest.Method, _ path: String, on server: MotoServer, signer: SigV4Signer,
        payload: SigV4PayloadSigning = .hashed, body: RequestBody? = nil, fields: HTTPFields = [:]
    ) async throws -> Response {
        let client = RequestClient(transport: AsyncHTTPClientTransport(), middleware: [.sigV4(signer, payload: payload)])
        var request = HTTPRequestBuilder(method, "http://127.0.0.1:\(server.port)\(path)").headers(fields).acceptingStatus(.any)
        if let body { request = request.body(body) }
        return try await client.send(try request.build())
    }

    static func signer(_ server: MotoServer, secret: String? = nil, session: Bool = false) -> SigV4Signer {
        let given = session ? server.sessionCredentials : server.credentials
        let credentials = AWSCredentials(
            accessKeyID: given.accessKeyID, secretAccessKey: secret ?? given.secretAccessKey, sessionToken: given.sessionToken
        )
        return SigV4Signer(credentials: credentials, region: server.region)
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// A body read once, from an async stream in uneven pieces.
    static func oneShotStream(_ bytes: [UInt8]) -> RequestBody {
        let pieces = stride(from: 0, to: bytes.count, by: 10_007).map { Array(bytes[$0..<min($0 + 10_007, bytes.count)]) }
        return RequestBody.stream(AsyncStream { continuation in
            pieces.forEach { continuation.yield($0) }
            continuation.finish()
        }, length: Int64(bytes.count))
    }

    @Test func everyPayloadModeStoresTheObject() async throws {
        let server = try await MotoServer.start()
        defer { server.stop() }
        let signer = Self.signer(server)
        let created = try await Self.send(.put, "/modes", on: server, signer: signer)
        #expect(created.head.status == .ok, "\(String(decoding: created.body, as: UTF8.self))")

        let original = Self.randomBytes(200_000)  // four 64 KiB chunks when streamed, the last short
        let bodies: [(String, SigV4PayloadSigning, RequestBody)] = [
            ("hashed", .hashed, .bytes(original)),
            ("unsigned", .unsigned, .bytes(original)),
            ("streamed", .streaming(), Self.oneShotStream(original)),
            ("hashed-stream", .hashed, Self.oneShotStream(original)),  // falls back to streaming
            ("small-chunks", .streaming(chunkSize: 8192), .bytes(original)),
        ]
        for (name, payload, body) in bodies {
            let key = "/modes/\(name)/%C3%BC%20and%2Bplus.bin"
            let put = try await Self.send(.put, key, on: server, signer: signer, payload: payload, body: body)
            #expect(put.head.status == .ok, "\(name): \(String(decoding: put.body, as: UTF8.self))")
            let got = try await Self.send(.get, key, on: server, signer: signer)
            #expect(got.head.status == .ok, "\(name)")
            #expect(Array(got.body) == original, "\(name)")
        }

        let session = try await Self.send(.get, "/modes/hashed/%C3%BC%20and%2Bplus.bin", on: server, signer: Self.signer(server, session: true))
        #expect(session.head.status == .ok, "temporary credentials sign with their session token")
        #expect(Array(session.body) == original)
    }

    @Test func presignedURLFetchesWithNoHeader() async throws {
        let server = try await MotoServer.start()
        defer { server.stop() }
        let signer = Self.signer(server)
        _ = try await Self.send(.put, "/presigned", on: server, signer: signer)
        let content = Array("presigned content".utf8)
        _ = try await Self.send(.put, "/presigned/a%20b%3Dc.txt", on: server, signer: signer, body: .bytes(content))

        let head = HTTPRequest(method: .get, scheme: "http", authority: "127.0.0.1:\(server.port)", path: "/presigned/a%20b%3Dc.txt?response-content-type=text%2Fplain")
        for credentials in [signer, Self.signer(server, session: true)] {
            let url = try credentials.presignedURL(for: head, expiresIn: .seconds(300), date: Date())
            let fetched = try await S3Exchange.send("GET", url.absoluteString, headers: [])
            #expect(fetched.status == 200, "\(fetched.text)")
            #expect(fetched.body == content)
        }

        let wrong = try Self.signer(server, secret: "wrong").presignedURL(for: head, expiresIn: .seconds(300), date: Date())
        let refused = try await S3Exchange.send("GET", wrong.absoluteString, headers: [])
        #expect(refused.status == 403)
        #expect(refused.text.contains("<Code>SignatureDoesNotMatch</Code>"))

        let stale = try signer.presignedURL(for: head, expiresIn: .seconds(1), date: Date(timeIntervalSinceNow: -60))
        let expired = try await S3Exchange.send("GET", stale.absoluteString, headers: [])
        #expect(expired.status == 403, "an expired URL is refused")
    }

    @Test func aWrongSecretIsRefused() async throws {
        let server = try await MotoServer.start()
        defer { server.stop() }
        _ = try await Self.send(.put, "/refused", on: server, signer: Self.signer(server))
        let wrong = Self.signer(server, secret: "not-the-secret")
        for payload in [SigV4PayloadSigning.hashed, .unsigned, .streaming()] {
            let put = try await Self.send(.put, "/refused/object", on: server, signer: wrong, payload: payload, body: .bytes(Array(repeating: 1, count: 100_000)))
            #expect(put.head.status == .forbidden)
            #expect(String(decoding: put.body, as: UTF8.self).contains("<Code>SignatureDoesNotMatch</Code>"))
        }
        let get = try await Self.send(.get, "/refused/object", on: server, signer: wrong)
        #expect(get.head.status == .forbidden)
    }
}
