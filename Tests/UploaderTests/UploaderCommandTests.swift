import Foundation
import HTTPBodyTesting
import TestSupport
import Testing

/// The contract's items, options and exit statuses, driven through the built
/// executable against a real server on 127.0.0.1.
@Suite struct UploaderCommandTests {
    /// A dry run's bytes split into request line, header fields and body.
    struct DryRunRequest {
        var requestLine: String
        var headers: [(name: String, value: String)]
        var body: [UInt8]

        init(_ bytes: [UInt8]) throws {
            let separator = Array("\r\n\r\n".utf8)
            let end = try #require((0...(bytes.count - separator.count)).first { Array(bytes[$0..<$0 + 4]) == separator })
            let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
            requestLine = lines[0]
            headers = lines.dropFirst().map { line in
                let colon = line.firstIndex(of: ":") ?? line.endIndex
                return (String(line[..<colon]), String(line[colon...].dropFirst()).trimmingCharacters(in: .whitespaces))
            }
            body = Array(bytes[(end + 4)...])
        }

        func header(_ name: String) -> String? {
            headers.first { $0.name.lowercased() == name.lowercased() }?.value
        }
    }

    @Test func dryRunIsExactlyWhatTheServerReceives() async throws {
        let scratch = try ScratchFolder()
        let photo = try scratch.file("photo.bin", (0..<5000).map { UInt8(truncatingIfNeeded: $0 &* 7) })
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let arguments = [
            "localhost:\(server.port)/upload?x=1", "title=Hello wörld", "count:=9007199254740993",
            "photo@\(photo);type=image/png", "page==2", "X-Trace:abc", "-F", "note=from -F",
            "--boundary", "fixed-boundary-123",
        ]
        let dryRun = try await UploaderProcess.run(arguments + ["--dry-run"])
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        let sent = try await UploaderProcess.run(arguments)
        #expect(sent.status == 0, "\(sent.standardError)")

        let expected = try DryRunRequest(dryRun.standardOutput)
        let received = try #require(server.requests.first)
        #expect(expected.requestLine == "POST \(received.uri) HTTP/1.1")
        #expect(received.uri == "/upload?x=1&page=2")
        #expect(received.body == expected.body)
        let normalize = { (fields: [(name: String, value: String)]) in
            fields.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
        }
        #expect(normalize(received.headers) == normalize(expected.headers))
        // The same request to a fixed address, pinned byte for byte.
        var fixed = arguments
        fixed[0] = "localhost:8080/upload?x=1"
        expectGolden(try await UploaderProcess.run(fixed + ["--dry-run"]).standardOutput, named: "multipart.http")
    }

    @Test func textFieldsAloneMakeJSONWithExactNumbers() async throws {
        let result = try await UploaderProcess.run([
            "--dry-run", "example.com/api", "name=Ada", "big:=9007199254740993", "small:=0.1",
            "huge:=1.5e300", "digits:=123456789012345678901234567890", "list:=[1, \"two\"]",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let request = try DryRunRequest(result.standardOutput)
        #expect(request.requestLine == "POST /api HTTP/1.1")
        #expect(request.header("Content-Type") == "application/json")
        #expect(String(decoding: request.body, as: UTF8.self)
            == #"{"name":"Ada","big":9007199254740993,"small":0.1,"huge":1.5e300,"digits":123456789012345678901234567890,"list":[1, "two"]}"#)
    }

    @Test func formFlagSendsURLEncodedFields() async throws {
        let result = try await UploaderProcess.run(["--dry-run", "--form", "example.com/f", "q=a b&c", "lang=日本"])
        let request = try DryRunRequest(result.standardOutput)
        #expect(request.header("Content-Type") == "application/x-www-form-urlencoded")
        #expect(String(decoding: request.body, as: UTF8.self) == "q=a%20b%26c&lang=%E6%97%A5%E6%9C%AC")
    }

    @Test func multipartFlagForcesMultipartForFieldsAlone() async throws {
        let result = try await UploaderProcess.run(["--dry-run", "--multipart", "example.com/f", "a=1", "n:=[1]", "--boundary", "XY"])
        #expect(result.status == 0, "\(result.standardError)")
        let request = try DryRunRequest(result.standardOutput)
        #expect(request.header("Content-Type") == "multipart/form-data; boundary=XY")
        #expect(String(decoding: request.body, as: UTF8.self) == """
            --XY\r
            Content-Disposition: form-data; name="a"\r
            \r
            1\r
            --XY\r
            Content-Disposition: form-data; name="n"\r
            Content-Type: application/json\r
            \r
            [1]\r
            --XY--\r

            """)
    }

    @Test func jsonFlagSendsFieldsAsStringsAndRefusesFiles() async throws {
        let result = try await UploaderProcess.run(["--dry-run", "--json", "example.com/j", "a=1", "b=x y"])
        let request = try DryRunRequest(result.standardOutput)
        #expect(request.header("Content-Type") == "application/json")
        #expect(String(decoding: request.body, as: UTF8.self) == #"{"a":"1","b":"x y"}"#)
        let withFile = try await UploaderProcess.run(["--dry-run", "--json", "example.com/j", "f@Samples/hello.txt"])
        #expect(withFile.status == 2)
        #expect(withFile.standardError.contains("f@Samples/hello.txt"))
    }

    @Test func noBodyMeansGETAndMethodCanBeGiven() async throws {
        let get = try DryRunRequest(try await UploaderProcess.run(["--dry-run", "example.com/a", "q==1"]).standardOutput)
        #expect(get.requestLine == "GET /a?q=1 HTTP/1.1")
        #expect(get.header("Content-Length") == nil)
        let put = try DryRunRequest(try await UploaderProcess.run(["--dry-run", "put", "example.com/a", "x=1"]).standardOutput)
        #expect(put.requestLine == "PUT /a HTTP/1.1")
    }

    /// A part from standard input is read first, so the body has a length;
    /// `--chunked` streams it as it comes.
    @Test(arguments: [false, true])
    func fileOverridesAndStandardInputPart(chunked: Bool) async throws {
        let scratch = try ScratchFolder()
        let path = try scratch.file("report.txt", "quarterly")
        let result = try await UploaderProcess.run(
            ["--dry-run", "example.com/up", "doc@\(path);filename=Q3.txt;type=text/markdown", "log@-", "--boundary", "B"] + (chunked ? ["--chunked"] : []),
            standardInput: Array("from stdin".utf8)
        )
        #expect(result.status == 0, "\(result.standardError)")
        let request = try DryRunRequest(result.standardOutput)
        #expect(request.header("Transfer-Encoding") == (chunked ? "chunked" : nil))
        #expect(request.header("Content-Length") == (chunked ? nil : "\(request.body.count)"))
        let body = String(decoding: request.body, as: UTF8.self)
        #expect(body.contains("Content-Disposition: form-data; name=\"doc\"; filename=\"Q3.txt\"\r\nContent-Type: text/markdown\r\n\r\nquarterly\r\n"))
        #expect(body.contains("Content-Disposition: form-data; name=\"log\"; filename=\"-\"\r\nContent-Type: application/octet-stream\r\n\r\n"))
        #expect(body.contains(chunked ? "from stdin" : "\r\n\r\nfrom stdin\r\n--B--"))  // streamed, a chunk's framing comes between
        #expect(body.hasSuffix(chunked ? "--B--\r\n\r\n0\r\n\r\n" : "--B--\r\n"))
    }

    @Test func headersAddReplaceAndRemoveDefaults() async throws {
        let result = try await UploaderProcess.run([
            "--dry-run", "example.com/", "User-Agent:", "Accept:application/json", "-H", "X-One: 1", "X-Two:two words",
        ])
        let request = try DryRunRequest(result.standardOutput)
        #expect(request.header("User-Agent") == nil)
        #expect(request.header("Accept") == "application/json")
        #expect(request.header("X-One") == "1")
        #expect(request.header("X-Two") == "two words")
    }

    @Test func rawDataBodies() async throws {
        let scratch = try ScratchFolder()
        let json = try scratch.file("payload", #"{"a": 1}"#)
        let fromFile = try DryRunRequest(try await UploaderProcess.run(["--dry-run", "example.com/", "--data", "@\(json)"]).standardOutput)
        #expect(fromFile.header("Content-Type") == "application/json")
        #expect(fromFile.body == Array(#"{"a": 1}"#.utf8))
        let typed = try DryRunRequest(try await UploaderProcess.run([
            "--dry-run", "example.com/", "--data", "hello", "-H", "Content-Type: text/x-custom",
        ]).standardOutput)
        #expect(typed.header("Content-Type") == "text/x-custom")
        #expect(typed.headers.filter { $0.name.lowercased() == "content-type" }.count == 1)
        let piped = try await UploaderProcess.run(["--dry-run", "example.com/", "--data", "-"], standardInput: [1, 2, 3])
        let pipedRequest = try DryRunRequest(piped.standardOutput)
        #expect(pipedRequest.body == [1, 2, 3])
        #expect(pipedRequest.header("Content-Length") == "3")
        let streamed = try await UploaderProcess.run(["--dry-run", "example.com/", "--data", "-", "--chunked"], standardInput: [1, 2, 3])
        #expect(try DryRunRequest(streamed.standardOutput).body == Array("3\r\n".utf8) + [1, 2, 3] + Array("\r\n0\r\n\r\n".utf8))
    }

    @Test func gzipBodyArrivesCompressed() async throws {
        let scratch = try ScratchFolder()
        let text = String(repeating: "compress me please ", count: 2000)
        let path = try scratch.file("big.txt", text)
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "--data", "@\(path)", "--gzip"])
        #expect(result.status == 0, "\(result.standardError)")
        let received = try #require(server.requests.first)
        #expect(received.header("Content-Encoding") == "gzip")
        let body = try #require(received.body)
        #expect(body.count < text.utf8.count / 10)
        let compressed = try scratch.file("received.gz", body)
        let inflated = try await UploaderProcess.runShell("gzip -dc '\(compressed)'")
        #expect(inflated.outputText == text)
    }

    @Test func outputOptionWritesResponseBody() async throws {
        let scratch = try ScratchFolder()
        let server = try await TestHTTPServer.start(script: .sequence([.status(201, body: "created!")]))
        defer { Task { try? await server.stop() } }
        let target = scratch.url.appending(path: "response.txt").path
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "a=1", "-o", target, "--print-response-headers"])
        #expect(result.status == 0)
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "created!")
        #expect(result.standardOutput.isEmpty)
        #expect(result.standardError.hasPrefix("HTTP/1.1 201 Created\r\n"))
    }

    @Test(arguments: [(404, Int32(4)), (422, 4), (500, 5), (503, 5), (301, 5), (204, 0)])
    func exitStatusFollowsResponseStatus(code: Int, expected: Int32) async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(code, headers: [("Location", "/elsewhere")], body: "body \(code)")]))
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "a=1"])
        #expect(result.status == expected)
        #expect(server.requests.count == 1)  // redirects are not followed
        if code != 204 { #expect(result.outputText == "body \(code)") }
        if expected != 0 { #expect(result.standardError.contains("\(code)")) }
    }

    @Test func retriesServerErrorsHonouringRetryAfter() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([
            .status(503, headers: [("Retry-After", "0")]), .status(500), .status(200, body: "ok"),
        ]))
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "a=1", "--retry", "3"])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(server.requests.count == 3)
        #expect(result.outputText == "ok")
    }

    @Test func neverRetriesOtherClientErrors() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(400), .status(200)]))
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "a=1", "--retry", "3"])
        #expect(result.status == 4)
        #expect(server.requests.count == 1)
    }

    @Test func networkFailureExitsThree() async throws {
        let result = try await UploaderProcess.run(["127.0.0.1:1/", "a=1", "--retry", "1"])
        #expect(result.status == 3)
        #expect(!result.standardError.isEmpty)
    }

    @Test func timeoutExitsThree() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, delay: .seconds(30))]))
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "a=1", "--timeout", "0.3"])
        #expect(result.status == 3)
    }

    @Test func verboseAndProgressWriteToStandardError() async throws {
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "a=1", "-v", "--progress"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("POST / HTTP/1.1\r\n"))
        #expect(result.standardError.contains("HTTP/1.1 200 OK\r\n"))
        #expect(result.standardError.contains("100% ["))
        let quiet = try await UploaderProcess.run(["localhost:\(server.port)/", "a=1", "--no-progress"])
        #expect(quiet.standardError.isEmpty)  // not a terminal, and no progress asked for
    }

    @Test func versionAndHelp() async throws {
        let version = try await UploaderProcess.run(["--version"])
        #expect(version.status == 0)
        #expect(version.outputText == "0.1.0\n")
        let help = try await UploaderProcess.run(["--help"])
        #expect(help.status == 0)
        #expect(help.outputText.contains("name@path;type=MIME"))
        #expect(help.outputText.contains("EXAMPLES"))
    }

    @Test func tenThousandFilePartsUnderTheOpenFileLimit() async throws {
        let scratch = try ScratchFolder()
        let result = try await UploaderProcess.runShell(
            """
            for i in $(seq 0 9999); do printf %s "$i" > "f$i.txt"; echo "f$i@f$i.txt"; done > items && \
            ulimit -n 1024 && xargs -a items "$UPLOADER" --dry-run localhost/up --boundary X | tail -c 40
            """,
            currentDirectory: scratch.url
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText.hasSuffix("\r\n9999\r\n--X--\r\n"))
    }
}
