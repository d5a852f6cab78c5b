import Foundation
import TestSupport
import Testing

/// curl's `-F` syntax as curl itself reads it: each part spec is sent once
/// by `curl -F` and once by `uploader -F` to the same server, and the parts
/// that arrive must agree (names, filenames, types and bytes; boundaries
/// aside). curl is the oracle: `.ci/run` installs it.
@Suite struct CurlPeerFormTests {
    /// One received part: its header lines and its bytes.
    struct Part: Equatable, CustomStringConvertible {
        var headers: [String]
        var body: String
        var description: String { headers.joined(separator: " | ") + " => " + body.debugDescription }
    }

    static let specs = [
        "a=b;type=text/x-foo",
        "a=b; type=text/x",
        "a=;type=text/x",
        #"a="x;y""#,
        #"a="x\"y\\z""#,
        #"f=@"my;file.txt""#,
        "f=@x.txt;type=text/plain;charset=utf-8",
        #"f=@x.txt;filename="a\"b.txt""#,
        #"f=@x.txt;filename="a;b.txt";type=image/png"#,
        "f=@x.txt;type=application/json;filename=data.json",
        "j=<x.txt",
        "j=<x.txt;type=text/x-foo",
        #"j=<"my;file.txt""#,
    ]

    @Test(arguments: specs)
    func uploaderSendsTheSamePartAsCurl(spec: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appending(path: "curl-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("hello".utf8).write(to: directory.appending(path: "my;file.txt"))
        try Data("x".utf8).write(to: directory.appending(path: "x.txt"))

        let server = try await TestHTTPServer.start()
        let quoted = "'" + spec.replacingOccurrences(of: "'", with: "'\\''") + "'"
        let curl = try await UploaderProcess.runShell("curl -sS -o /dev/null -H 'Expect:' -F \(quoted) http://127.0.0.1:\(server.port)/curl", currentDirectory: directory)
        let ours = try await UploaderProcess.runShell("\"$UPLOADER\" --no-progress 127.0.0.1:\(server.port)/ours -F \(quoted)", currentDirectory: directory)
        try await server.stop()
        #expect(curl.status == 0, "curl: \(curl.standardError)")
        #expect(ours.status == 0, "uploader: \(ours.standardError)")
        let requests = server.requests
        try #require(requests.count == 2)
        let curlParts = try Self.parts(of: requests[0])
        let ourParts = try Self.parts(of: requests[1])
        #expect(ourParts == curlParts, "\(spec)")
    }

    /// Where curl silently drops text (`a=b;c` sends `b`), the uploader
    /// refuses the part and says how to send the `;`.
    @Test func aSemicolonCurlWouldCutAtIsRefusedNotDropped() async throws {
        let result = try await UploaderProcess.run(["--dry-run", "localhost:8080/", "-F", "a=b;c"])
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: 'a=b;c': curl would send 'b' and drop what follows ';'; double-quote a value that holds ';'\n")
        #expect(result.standardOutput.isEmpty)
    }

    /// The parts of a recorded multipart request, each header line with the
    /// spaces after `;` removed (curl keeps a type as typed, we write it
    /// canonically: `text/plain;charset=utf-8` and `text/plain; charset=utf-8`
    /// say the same).
    static func parts(of request: TestHTTPServer.RecordedRequest) throws -> [Part] {
        let type = try #require(request.header("Content-Type"))
        let boundary = try #require(type.components(separatedBy: "boundary=").last)
        let body = String(decoding: request.body ?? [], as: UTF8.self)
        return body.components(separatedBy: "--\(boundary)").dropFirst().dropLast().map { chunk in
            // The CRLF after the delimiter and the one before the next (one Character each).
            var text = Substring(chunk)
            if text.hasPrefix("\r\n") { text = text.dropFirst() }
            if text.hasSuffix("\r\n") { text = text.dropLast() }
            let sections = text.components(separatedBy: "\r\n\r\n")
            let headers = sections[0].components(separatedBy: "\r\n").map { $0.replacingOccurrences(of: "; ", with: ";") }
            return Part(headers: headers, body: sections.dropFirst().joined(separator: "\r\n\r\n"))
        }
    }
}
