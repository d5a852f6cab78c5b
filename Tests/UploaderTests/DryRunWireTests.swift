import Foundation
import TestSupport
import Testing

/// The dry run is the wire, and a dry run piped into a reader that stops
/// early ends as `cat` does (issue 28).
@Suite struct DryRunWireTests {
    /// The head `--dry-run` writes is the head AsyncHTTPClient sends, byte
    /// for byte: `transfer-encoding: chunked` as NIO spells it for a POST
    /// or PUT, `Transfer-Encoding` for a DELETE.
    @Test(arguments: ["POST", "PUT", "DELETE"])
    func aChunkedDryRunHeadIsTheWireHead(method: String) async throws {
        let server = try await RawResponseServer.start { _ in .text("HTTP/1.1 204 No Content") }
        defer { Task { try? await server.stop() } }
        let arguments = [method, "127.0.0.1:\(server.port)/up", "--gzip", "a=1"]
        let dryRun = try await UploaderProcess.run(["--dry-run"] + arguments)
        // The server answers once the head is in, which may cut a chunked
        // body short: only the head is compared, not how the send ended.
        _ = try await UploaderProcess.run(["--no-progress"] + arguments)
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        let head = try #require(dryRun.outputText.components(separatedBy: "\r\n\r\n").first)
        let wire = try #require(server.receivedHeads.first)
        #expect(String(decoding: wire, as: UTF8.self) == head + "\r\n\r\n")
        #expect(head.contains(method == "DELETE" ? "\r\nTransfer-Encoding: chunked" : "\r\ntransfer-encoding: chunked"), "\(head)")
    }

    /// `uploader --dry-run … | head -1` ends quietly, as `cat` does when its
    /// reader goes away, with the status a shell shows for `cat` then (141).
    @Test func aReaderThatGoesAwayEndsTheRunQuietly() async throws {
        let directory = try ItemsFromFilesTests.folder(["big.bin": [UInt8](repeating: 0x61, count: 4 << 20)])
        defer { try? FileManager.default.removeItem(at: directory) }
        // The body is far larger than a pipe holds: the uploader is still
        // writing when head has read its line and gone.
        let result = try await UploaderProcess.runShell(
            #"("$UPLOADER" --dry-run localhost:8080/up f@big.bin; echo "exit $?" >&2) | head -1 >/dev/null"#,
            currentDirectory: directory
        )
        #expect(result.standardError == "exit 141\n")
    }
}
