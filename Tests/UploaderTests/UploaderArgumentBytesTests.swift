import Foundation
import TestSupport
import Testing

/// Command-line bytes that are not UTF-8 (#24.12) go out as those bytes
/// wherever bytes can go — a URL escape, a multipart part, a form body — and
/// are refused where only Unicode text can go (JSON, header values), never
/// sent as the private-use scalars the tool keeps them in.
///
/// The shell writes the bytes (`printf '\377'`): Swift strings cannot hold them.
@Suite struct UploaderArgumentBytesTests {
    private func runShell(_ arguments: String, server: TestHTTPServer) async throws -> UploaderProcess.Result {
        try await UploaderProcess.runShell("ff=$(printf '\\377'); fe=$(printf '\\376'); \"$UPLOADER\" --no-progress \(arguments)")
    }

    @Test func queryItemCarriesTheByteAsPercentFF() async throws {
        let server = try await TestHTTPServer.start()
        let result = try await runShell("\"localhost:\(server.port)/a?x=%41\" \"q==b$fe c\"", server: server)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests.first?.uri == "/a?x=%41&q=b%FE%20c")
        try await server.stop()
    }

    /// Through `--dry-run`, the request as built; the real send below.
    @Test func urlPathCarriesTheByteAsPercentFF() async throws {
        let result = try await UploaderProcess.runShell("ff=$(printf '\\377'); \"$UPLOADER\" --dry-run \"localhost:1/a$ff?x=%41\" q==1")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText.hasPrefix("GET /a%FF?x=%41&q=1 HTTP/1.1\r\n"), "\(result.outputText)")
    }

    /// Sent for real: AsyncHTTPClient reads the path through Foundation's
    /// `URL.path`, empty for an escape that is not UTF-8, and sent `GET /?x=%41&q=1`
    /// for this command (#24.12) while the dry run said `/a%FF`.
    @Test func urlPathCarriesTheByteAsPercentFFOnTheWire() async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 204 No Content") }
        let result = try await UploaderProcess.runShell("ff=$(printf '\\377'); \"$UPLOADER\" --no-progress \"127.0.0.1:\(server.port)/a$ff/b%FE?x=%41\" q==1")
        #expect(result.status == 0, "\(result.standardError)")
        let head = String(decoding: try #require(server.receivedHeads.first), as: UTF8.self)
        #expect(head.hasPrefix("GET /a%FF/b%FE?x=%41&q=1 HTTP/1.1\r\n"), "\(head)")
        #expect(!head.lowercased().contains("x-requestbuilder"), "\(head)")
        try await server.stop()
    }

    @Test func formBodyCarriesTheByteAsPercentFF() async throws {
        let server = try await TestHTTPServer.start()
        let result = try await runShell("--form localhost:\(server.port)/up \"a$ff=b$fe\"", server: server)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests.first?.body == Array("a%FF=b%FE".utf8))
        try await server.stop()
    }

    @Test func multipartTextPartCarriesTheExactBytes() async throws {
        let server = try await TestHTTPServer.start()
        let result = try await runShell("--multipart localhost:\(server.port)/up \"a=b$fe\" -F \"c=d$ff;type=text/plain\"", server: server)
        #expect(result.status == 0, "\(result.standardError)")
        let body = try #require(server.requests.first?.body)
        let field = Array("name=\"a\"\r\nContent-Type: application/octet-stream\r\n\r\nb".utf8) + [0xFE, 0x0D, 0x0A]
        let part = Array("name=\"c\"\r\nContent-Type: text/plain\r\n\r\nd".utf8) + [0xFF, 0x0D, 0x0A]
        #expect(body.firstRange(of: field) != nil, "\(String(decoding: body, as: UTF8.self))")
        #expect(body.firstRange(of: part) != nil, "\(String(decoding: body, as: UTF8.self))")
        try await server.stop()
    }

    @Test func rawDataCarriesTheExactBytes() async throws {
        let server = try await TestHTTPServer.start()
        let result = try await runShell("localhost:\(server.port)/up --data \"x$ff\"", server: server)
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests.first?.body == [UInt8(ascii: "x"), 0xFF])
        try await server.stop()
    }

    @Test(arguments: [
        ("\"a$ff=b$fe\"", "'a\\xff=b\\xfe': a JSON field's name and value must be UTF-8"),
        ("\"n:=\\\"x$ff\\\"\"", "'n:=\"x\\xff\"': a JSON field's name and value must be UTF-8"),
        ("--multipart \"a$ff=b\"", "'a\\xff=b': a multipart part's name must be UTF-8"),
        ("-F \"a=b;filename=x$ff\"", "'a=b': a ;filename= value must be UTF-8"),
        ("\"X-A:b$fe\"", "'X-A:b\\xfe': a header's name and value must be UTF-8"),
    ])
    func refusedWhereOnlyUnicodeTextGoes(items: String, message: String) async throws {
        let server = try await TestHTTPServer.start()
        let result = try await runShell("localhost:\(server.port)/up \(items)", server: server)
        #expect(result.status == 2)
        #expect(result.standardError.hasPrefix("uploader: \(message)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(server.requests.isEmpty)
        try await server.stop()
    }
}
