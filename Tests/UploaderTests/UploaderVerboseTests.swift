import Foundation
import TestSupport
import Testing

/// What `-v` shows: every head, never a credential (issue 24.9).
@Suite struct UploaderVerboseTests {
    @Test func verboseRedactsCredentialsAndDryRunStaysTheRequest() async throws {
        let server = try await TestHTTPServer.start()
        let basic = Data("ada:pw-secret".utf8).base64EncodedString()
        let arguments = [
            "http://ada:pw-secret@127.0.0.1:\(server.port)/up?Token=query-secret&page=2",
            "X-Api-Key:key-secret", "Cookie:id=cookie-secret", "a=1",
        ]
        let result = try await UploaderProcess.run(["-v"] + arguments)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests.first?.header("Authorization") == "Basic " + basic)
        #expect(server.requests.first?.header("X-Api-Key") == "key-secret")
        let shown = result.standardError
        for secret in [basic, "pw-secret", "query-secret", "key-secret", "cookie-secret"] {
            #expect(!shown.contains(secret), "\(secret) in \(shown)")
        }
        #expect(shown.contains("POST /up?Token=<redacted>&page=2 HTTP/1.1\r\n"), "\(shown)")
        #expect(shown.contains("Authorization: <redacted>\r\n"))
        #expect(shown.contains("X-Api-Key: <redacted>\r\n"))
        #expect(shown.contains("HTTP/1.1 200 OK\r\n"))
        // --dry-run is the request: byte for byte, credentials included.
        let dryRun = try await UploaderProcess.run(["--dry-run"] + arguments)
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        #expect(dryRun.outputText.contains("Authorization: Basic \(basic)\r\n"))
        #expect(dryRun.outputText.contains("Token=query-secret"))
        try await server.stop()
    }

    /// S3's customer-provided key (and its MD5) in the request and the
    /// server's `Set-Cookie` in the response are credentials too.
    @Test func verboseHidesEncryptionKeysAndSetCookie() async throws {
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { _, _ in
            .status(200, headers: [("Set-Cookie", "session=cookie-secret; HttpOnly")], body: "ok")
        })
        let result = try await UploaderProcess.run([
            "-v", "http://127.0.0.1:\(server.port)/up",
            "x-amz-server-side-encryption-customer-key:sse-key-secret",
            "x-amz-server-side-encryption-customer-key-MD5:sse-md5-secret", "a=1",
        ])
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests.first?.header("x-amz-server-side-encryption-customer-key") == "sse-key-secret")
        let shown = result.standardError
        for secret in ["sse-key-secret", "sse-md5-secret", "cookie-secret"] {
            #expect(!shown.contains(secret), "\(secret) in \(shown)")
        }
        #expect(shown.contains("x-amz-server-side-encryption-customer-key: <redacted>\r\n"), "\(shown)")
        #expect(shown.contains("Set-Cookie: <redacted>\r\n"), "\(shown)")
        #expect(shown.contains("HTTP/1.1 200 OK\r\n"))
    }

    /// With --retry, each attempt's heads are shown, not only the first request's.
    @Test func verboseShowsEveryAttempt() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(503), .status(200)]))
        let result = try await UploaderProcess.run(["-v", "--retry", "1", "localhost:\(server.port)/up", "a=1"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.components(separatedBy: "POST /up HTTP/1.1\r\n").count == 3, "\(result.standardError)")
        #expect(result.standardError.contains("HTTP/1.1 503 Service Unavailable\r\n"))
        #expect(result.standardError.components(separatedBy: "HTTP/1.1 200 OK\r\n").count == 2, "\(result.standardError)")
        try await server.stop()
    }
}
