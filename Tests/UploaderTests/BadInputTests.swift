import Foundation
import TestSupport
import Testing

/// Bad input exits 2 with one line naming the item at fault, and nothing is sent.
@Suite struct BadInputTests {
    @Test(arguments: [
        (["a=1", "photo@/nonexistent/cat.jpg"], "/nonexistent/cat.jpg"),
        (["dir@/tmp"], "/tmp"),
        (["justaword"], "justaword"),
        ([":value"], ":value"),
        (["-H", "X-Bad: a\rb"], "X-Bad"),
        (["Bad Name:x"], "Bad Name"),
        (["--form", "f@/etc/hostname"], "--form"),
        (["--form", "n:=1"], "n:=1"),
        (["n:=[1,"], "n:=[1,"),
        (["--boundary", "bad\"boundary", "f@/etc/hostname"], "--boundary"),
        (["--boundary", String(repeating: "b", count: 71), "a=1", "--multipart"], "--boundary"),
        (["--data", "@/nonexistent/body"], "/nonexistent/body"),
        (["--data", "x", "a=1"], "--data"),
        (["--json", "--form", "a=1"], "--json and --form"),
        (["--retry", "-1", "a=1"], "--retry"),
        (["f@Samples/hello.txt;type=notatype"], "notatype"),
    ])
    func badInputExitsTwoAndSendsNothing(items: [String], culprit: String) async throws {
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up"] + items, currentDirectory: packageRoot)
        #expect(result.status == 2)
        #expect(result.standardError.contains(culprit), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count <= 2)
        #expect(server.requests.isEmpty)
    }

    @Test(arguments: ["http://exa mple.com/", "ftp://example.com/", "http://"])
    func invalidURLExitsTwo(url: String) async throws {
        let result = try await UploaderProcess.run([url, "a=1"])
        #expect(result.status == 2)
        #expect(result.standardError.contains(url))
    }

    @Test func boundaryFoundInFileIsCaughtBeforeSending() async throws {
        let scratch = try ScratchFolder()
        var content = [UInt8](repeating: 0x41, count: 3 * 1024 * 1024)
        content.replaceSubrange((1 << 20) - 3..<(1 << 20) + 5, with: Array("SEPARATE".utf8))  // across a read edge
        let path = try scratch.file("data.bin", content)
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/", "f@\(path)", "--boundary", "SEPARATE"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("SEPARATE"))
        #expect(result.standardError.contains("data.bin"))
        #expect(server.requests.isEmpty)
    }

    /// Standard input is read before anything is sent, so the boundary in
    /// it is bad input like the boundary in a file; streamed (`--chunked`),
    /// it is found only as it goes, and the upload is aborted.
    @Test func boundaryFoundInStandardInputIsBadInputOrAbortsWhenStreamed() async throws {
        let read = try await UploaderProcess.run(
            ["--dry-run", "localhost/", "f@-", "--boundary", "SEPARATE"],
            standardInput: Array("before SEPARATE after".utf8)
        )
        #expect(read.status == 2)
        #expect(read.standardError == "uploader: The multipart boundary \"SEPARATE\" occurs in part \"f\"; choose another boundary or use a random one\n")
        #expect(read.standardOutput.isEmpty)
        let streamed = try await UploaderProcess.run(
            ["--dry-run", "localhost/", "f@-", "--boundary", "SEPARATE", "--chunked"],
            standardInput: Array("before SEPARATE after".utf8)
        )
        #expect(streamed.status == 3)
        #expect(streamed.standardError.contains("SEPARATE"))
    }
}
