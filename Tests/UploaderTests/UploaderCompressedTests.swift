import Foundation
import TestSupport
import Testing

/// `--compressed`, checked against curl's `--compressed` (the peer it
/// copies) on the same answers, which Python's gzip and zlib compress
/// (`Tests/Servers/compressed_server.py`).
@Suite struct UploaderCompressedTests {
    static func startServer() async throws -> ServerProcess {
        let python = TestPython.any()
        return try await ServerProcess.start(
            name: "compressed-server",
            executable: python.executable,
            arguments: python.arguments + [TestPackage.serverScript("compressed_server.py").path]
        )
    }

    @Test(
        "The decoded body is curl --compressed's, byte for byte, to -o and to a pipe",
        arguments: ["gzip", "gzip-chunked", "deflate", "raw-deflate", "gzip-deflate", "identity"]
    )
    func decodesAsCurlDoes(path: String) async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        let url = server.url(path: "/\(path)").absoluteString
        let folder = try ScratchFolder()
        let curl = try await UploaderProcess.runShell("curl -sS --compressed -o '\(folder.url.path)/curl' '\(url)'")
        #expect(curl.status == 0, "\(curl.standardError)")
        let expected = try [UInt8](Data(contentsOf: folder.url.appending(path: "curl")))
        #expect(expected.count > 2_000_000)

        let written = try await UploaderProcess.run(["GET", url, "--compressed", "-o", folder.url.appending(path: "ours").path])
        #expect(written.status == 0, "\(written.standardError)")
        #expect(written.standardError.isEmpty, "\(written.standardError)")
        // Compared outside #expect, which would print megabytes on a failure.
        let ours = try [UInt8](Data(contentsOf: folder.url.appending(path: "ours")))
        let sameInFile = ours == expected
        #expect(sameInFile, "-o: \(ours.count) bytes, not curl's \(expected.count)")

        let piped = try await UploaderProcess.run(["GET", url, "--compressed"])
        #expect(piped.status == 0, "\(piped.standardError)")
        let sameOnPipe = piped.standardOutput == expected
        #expect(sameOnPipe, "standard output: \(piped.standardOutput.count) bytes, not curl's \(expected.count)")
    }

    @Test("Without --compressed the body is written as sent, as curl writes it")
    func withoutTheOptionTheBodyIsAsSent() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        let url = server.url(path: "/gzip").absoluteString
        let curl = try await UploaderProcess.runShell("curl -sS '\(url)'")
        let ours = try await UploaderProcess.run(["GET", url, "-p", "hb"])
        #expect(ours.status == 0, "\(ours.standardError)")
        let (head, body) = try #require(Self.split(ours.standardOutput))
        #expect(head.contains("X-Accept-Encoding: none\r\n"), "\(head)")
        let same = body == curl.standardOutput
        #expect(same, "\(body.count) bytes, not curl's \(curl.standardOutput.count)")
        let isGzip = body.starts(with: [0x1F, 0x8B])
        #expect(isGzip)
    }

    @Test("--compressed asks for deflate and gzip, as curl with zlib does; an Accept-Encoding item replaces or removes it")
    func asksForDeflateAndGzip() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        let url = server.url(path: "/identity").absoluteString
        for (items, seen) in [([], "deflate, gzip"), (["Accept-Encoding:gzip"], "gzip"), (["Accept-Encoding:"], "none")] {
            let result = try await UploaderProcess.run(["GET", url] + items + ["--compressed", "-p", "h"])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.outputText.contains("X-Accept-Encoding: \(seen)\r\n"), "\(items): \(result.outputText)")
        }
        let dryRun = try await UploaderProcess.run(["GET", url, "--compressed", "--dry-run"])
        #expect(dryRun.outputText.contains("Accept: */*\r\nAccept-Encoding: deflate, gzip\r\n"), "\(dryRun.outputText)")
    }

    @Test(
        "A body that does not decode is one error naming the response, exit 3",
        arguments: [
            ("corrupt", "(200 OK, Content-Encoding: gzip) could not be decoded: the body is not valid gzip data: incorrect header check"),
            ("truncated", "(200 OK, Content-Encoding: gzip) could not be decoded: the body ended before its gzip data did"),
            ("br", "(200 OK, Content-Encoding: br) could not be decoded: the body is encoded with 'br', which cannot be decoded here (gzip and deflate can)"),
        ]
    )
    func anUndecodableBodyIsOneError(path: String, message: String) async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        let url = server.url(path: "/\(path)").absoluteString
        let result = try await UploaderProcess.run(["GET", url, "--compressed", "-o", "/dev/null"])
        #expect(result.status == 3)
        #expect(result.standardError == "uploader: the response to GET \(url) \(message)\n")
        if path == "corrupt" {
            // The peer agrees the bytes are not gzip: its "bad content encoding".
            let curl = try await UploaderProcess.runShell("curl -sS --compressed -o /dev/null '\(url)'")
            #expect(curl.status == 61, "\(curl.standardError)")
        }
    }

    @Test(
        "A 200 KB body that inflates to 200 MiB is decoded in constant memory",
        .disabled(if: AddressSanitizer.isActive, "AddressSanitizer's quarantine keeps freed buffers resident, so the resident set bounds nothing")
    )
    func aSmallBodyInflatingHugelyStaysInBoundedMemory() async throws {
        let server = try await Self.startServer()
        defer { server.stop() }
        let url = server.url(path: "/bomb").absoluteString
        // GNU time's %M: the peak resident set, in KiB, on standard error.
        let result = try await UploaderProcess.runShell("/usr/bin/time -f %M \"$UPLOADER\" GET '\(url)' --compressed | wc -c")
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText.trimmingCharacters(in: .whitespacesAndNewlines) == String(200 << 20))
        let peak = try #require(Int(result.standardError.trimmingCharacters(in: .whitespacesAndNewlines)), "\(result.standardError)")
        #expect(peak < 100_000, "peak resident set \(peak) KiB while writing 200 MiB")
    }

    /// The head and the body `-p hb` writes (a blank line ends the head).
    static func split(_ output: [UInt8]) -> (head: String, body: [UInt8])? {
        guard let range = output.firstRange(of: Array("\r\n\r\n".utf8)) else { return nil }
        return (String(decoding: output[..<range.upperBound], as: UTF8.self), Array(output[range.upperBound...]))
    }
}
