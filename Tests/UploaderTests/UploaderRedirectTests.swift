import Foundation
import TestSupport
import Testing

/// `-L, --follow` and `--max-redirects` through the built binary, against
/// real servers on 127.0.0.1 (contract, "The real network (version 6)":
/// redirects).
@Suite struct UploaderRedirectTests {
    /// A server that answers each path in `routes` with its reply, and `200`
    /// with body `done` elsewhere.
    static func server(_ routes: [String: TestHTTPServer.Reply]) async throws -> TestHTTPServer {
        try await TestHTTPServer.start(script: TestHTTPServer.Script { request, _ in
            routes[request.uri] ?? .status(200, body: "done")
        })
    }

    static func redirect(_ status: Int, to location: String) -> TestHTTPServer.Reply {
        .status(status, headers: [("Location", location)], body: "moved")
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appending(path: "uploader-redirect-\(UUID().uuidString).bin")
        try Data(bytes).write(to: url)
        return url
    }

    @Test func aRedirectIsNotFollowedWithoutFollow() async throws {
        let server = try await Self.server(["/up": Self.redirect(302, to: "/b")])
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "a=1"])
        try await server.stop()
        #expect(result.status == 5, "\(result.standardError)")
        #expect(result.standardError == "uploader: the server answered 302 Found\n")
        #expect(server.requests.map(\.uri) == ["/up"])
    }

    /// 307 and 308 to another origin send the same multipart bytes, the
    /// file re-read; the URL's credentials (sent as Authorization) and
    /// Cookie stay with the first origin.
    @Test(arguments: [307, 308])
    func followRepeatsTheMultipartBodyAndDropsCredentialsAcrossOrigins(status: Int) async throws {
        let file = try Self.temporaryFile((0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 13 &+ $0 >> 7) })
        defer { try? FileManager.default.removeItem(at: file) }
        let other = try await Self.server([:])
        let first = try await Self.server(["/up": Self.redirect(status, to: other.url(path: "/final").absoluteString)])
        let result = try await UploaderProcess.run([
            "-L", "http://ada:pw-secret@127.0.0.1:\(first.port)/up", "title=Sunset", "photo@\(file.path)",
            "Cookie:session=sekrit-cookie", "X-Trace:kept",
        ])
        try await first.stop()
        try await other.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText == "done")
        let hop1 = try #require(first.requests.first)
        let hop2 = try #require(other.requests.first)
        #expect(first.requests.count == 1 && other.requests.count == 1)
        #expect(hop2.method == "POST" && hop2.uri == "/final")
        let sent = try #require(hop1.body)
        #expect(sent.count > 200_000)
        #expect(hop2.body == sent, "the second hop's body differs from the first's")
        #expect(hop1.header("Authorization") == "Basic " + Data("ada:pw-secret".utf8).base64EncodedString())
        #expect(hop1.header("Cookie") == "session=sekrit-cookie")
        #expect(hop2.header("Authorization") == nil && hop2.header("Cookie") == nil)
        #expect(hop2.header("X-Trace") == "kept")
    }

    @Test func aSameOriginRedirectKeepsCredentials() async throws {
        let server = try await Self.server(["/up": Self.redirect(307, to: "/again")])
        let result = try await UploaderProcess.run(["-L", "http://ada:pw@127.0.0.1:\(server.port)/up", "Cookie:c=1", "a=1"])
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[1].uri == "/again" && received[1].body == received[0].body)
        #expect(received[1].header("Authorization") == received[0].header("Authorization"))
        #expect(received[1].header("Cookie") == "c=1")
    }

    /// 303, and 301/302 after a POST, continue as GET without the body.
    @Test(arguments: [303, 301, 302])
    func aPostRedirectedContinuesAsGetWithoutTheBody(status: Int) async throws {
        let server = try await Self.server(["/up": Self.redirect(status, to: "/result")])
        let result = try await UploaderProcess.run(["--follow", "127.0.0.1:\(server.port)/up", "a=1"])
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let received = server.requests
        try #require(received.count == 2)
        #expect(received[0].method == "POST" && received[0].body == Array(#"{"a":"1"}"#.utf8))
        #expect(received[1].method == "GET" && received[1].uri == "/result" && received[1].bodyByteCount == 0)
        #expect(received[1].header("Content-Type") == nil && received[1].header("Content-Length") == nil)
    }

    /// A body from standard input is read first, so a 307 has it again.
    @Test(arguments: [["--data", "-"], ["file@-"]])
    func aBodyFromStandardInputFollowsATemporaryRedirect(items: [String]) async throws {
        let server = try await Self.server(["/up": Self.redirect(307, to: "/again")])
        let result = try await UploaderProcess.run(["-L", "127.0.0.1:\(server.port)/up"] + items, standardInput: Array("piped".utf8))
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let received = server.requests
        #expect(received.map(\.uri) == ["/up", "/again"])
        #expect(received.count == 2 && received[0].body == received[1].body && received[0].bodyByteCount > 0)
    }

    /// Streamed (`--chunked`), a body from standard input is read once: a
    /// 307 cannot have it again.
    @Test(arguments: [["--data", "-"], ["file@-"]])
    func aStreamedBodyFromStandardInputCannotFollowATemporaryRedirect(items: [String]) async throws {
        let server = try await Self.server(["/up": Self.redirect(307, to: "/again")])
        let result = try await UploaderProcess.run(["-L", "--chunked", "127.0.0.1:\(server.port)/up"] + items, standardInput: Array("piped".utf8))
        try await server.stop()
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError == "uploader: POST http://127.0.0.1:\(server.port)/up: the server answered 307 Temporary Redirect to http://127.0.0.1:\(server.port)/again, which asks for the body again, but the body is read once (from standard input or a stream) and cannot be sent again\n")
        #expect(server.requests.map(\.uri) == ["/up"])
    }

    @Test func aLoopStopsAtMaxRedirects() async throws {
        let server = try await Self.server(["/loop": Self.redirect(302, to: "/loop")])
        let result = try await UploaderProcess.run(["-L", "--max-redirects", "2", "127.0.0.1:\(server.port)/loop"])
        try await server.stop()
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError == "uploader: GET http://127.0.0.1:\(server.port)/loop: stopped after 2 redirects, the most allowed; the next would be GET http://127.0.0.1:\(server.port)/loop (the server redirects in a loop, or too often)\n")
        #expect(server.requests.count == 3)
    }

    @Test func aLocationToAFileIsRefused() async throws {
        let server = try await Self.server(["/up": Self.redirect(302, to: "file:///etc/passwd")])
        let result = try await UploaderProcess.run(["-L", "127.0.0.1:\(server.port)/up"])
        try await server.stop()
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError == "uploader: GET http://127.0.0.1:\(server.port)/up: the server answered 302 Found with Location \"file:///etc/passwd\", which is not an http or https URL; not followed\n")
        #expect(result.standardOutput.isEmpty)
        #expect(server.requests.count == 1)
    }

    /// A relative Location is resolved against the current URL; the exit
    /// status is the last response's.
    @Test func aRelativeLocationIsResolvedAndTheLastStatusDecides() async throws {
        let server = try await Self.server([
            "/dir/sub/up": Self.redirect(308, to: "../next?x=1"),
            "/dir/next?x=1": .status(404, body: "gone"),
        ])
        let result = try await UploaderProcess.run(["-L", "127.0.0.1:\(server.port)/dir/sub/up", "a=1"])
        try await server.stop()
        #expect(result.status == 4, "\(result.standardError)")
        #expect(result.standardError == "uploader: the server answered 404 Not Found\n")
        #expect(server.requests.map(\.uri) == ["/dir/sub/up", "/dir/next?x=1"])
        #expect(server.requests.map(\.method) == ["POST", "POST"])
    }

    /// `-v` prints every hop's request and response heads.
    @Test func verbosePrintsEveryHop() async throws {
        let server = try await Self.server(["/up": Self.redirect(303, to: "/result")])
        let result = try await UploaderProcess.run(["-v", "-L", "127.0.0.1:\(server.port)/up", "a=1"])
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let shown = result.standardError
        let order = ["POST /up HTTP/1.1\r\n", "HTTP/1.1 303 See Other\r\n", "Location: /result\r\n", "GET /result HTTP/1.1\r\n", "HTTP/1.1 200 OK\r\n"]
        let positions = order.map { shown.range(of: $0)?.lowerBound }
        #expect(positions.allSatisfy { $0 != nil }, "\(shown)")
        #expect(zip(positions, positions.dropFirst()).allSatisfy { pair in
            guard let earlier = pair.0, let later = pair.1 else { return false }
            return earlier < later
        }, "\(shown)")
    }

    /// Bad --max-redirects values, and -L where an upload cannot honour it,
    /// exit 2 naming the option; nothing is sent.
    @Test(arguments: [
        (["-L", "--max-redirects", "-1"], "--max-redirects -1: give a whole number of redirects from 0 to 100"),
        (["-L", "--max-redirects", "101"], "--max-redirects 101: give a whole number of redirects from 0 to 100"),
        (["-L", "--max-redirects", "many"], "--max-redirects"),
        (["--max-redirects", "5"], "--max-redirects applies with -L/--follow; add -L"),
        (["-L", "--tus", "file@/etc/hostname"], "-L/--follow does not apply to --tus uploads, which follow the Location their server gives by themselves; drop -L"),
        (["-L", "--resumable", "file@/etc/hostname"], "-L/--follow does not apply to --resumable uploads, which follow the Location their server gives by themselves; drop -L"),
    ])
    func badRedirectOptionsExitTwo(arguments: [String], message: String) async throws {
        let server = try await Self.server([:])
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up"] + arguments)
        try await server.stop()
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(server.requests.isEmpty)
    }

    @Test func followIsRefusedForObjectStoresAndPresignedPosts() async throws {
        let s3 = try await UploaderProcess.run(["-L", "s3://bucket/key", "/etc/hostname"], environment: ["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret"])
        #expect(s3.status == 2, "\(s3.standardError)")
        #expect(s3.standardError == "uploader: -L/--follow does not apply to s3:// uploads, whose requests are signed for one endpoint; give the right --endpoint-url or --region\n")
        let post = try await UploaderProcess.run(["-L", "--presigned-post", "no-such-form.json", "/etc/hostname"])
        #expect(post.status == 2, "\(post.standardError)")
        #expect(post.standardError == "uploader: -L/--follow does not apply to --presigned-post, whose redirect (success_action_redirect) is a page for a browser; drop -L\n")
    }
}
