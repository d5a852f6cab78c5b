import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The contract's fault rules, driven through the built executable: a file
/// that changes size while it is sent exits 3 and the server never receives
/// a complete body; a full disk on `--output` fails naming the path.
@Suite struct UploaderFaultTests {
    enum FileChange: String, CaseIterable, CustomTestStringConvertible {
        case truncated, grown
        var testDescription: String { rawValue }
    }

    @Test(arguments: FileChange.allCases)
    func fileChangingSizeWhileSentExitsThree(change: FileChange) async throws {
        let scratch = try ScratchFolder()
        let temporary = scratch.url.appending(path: "tmp")
        try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
        // Far more than the socket buffers hold, so the change lands mid-body.
        let size = 48 * 1024 * 1024
        let path = try scratch.file("big.bin", [UInt8](repeating: 0x61, count: size))
        // The server changes the file the moment the request head arrives.
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { _, _ in
            switch change {
            case .truncated:
                _ = truncate(path, off_t(1024))
            case .grown:
                if let handle = FileHandle(forUpdatingAtPath: path) {
                    _ = try? handle.seekToEnd()
                    try? handle.write(contentsOf: Array("more".utf8))
                    try? handle.close()
                }
            }
            return .status(200)
        }, recordLimit: 0)
        defer { Task { try? await server.stop() } }

        let result = try await UploaderProcess.run(
            ["PUT", "localhost:\(server.port)/up", "--data", "@\(path)", "--no-progress"],
            environment: ["TMPDIR": temporary.path]
        )
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains(path), "\(result.standardError)")
        #expect(result.standardError.contains("changed size"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try await server.waitForClosedConnections())
        let received = try #require(server.requests.first)
        #expect(!received.isComplete)
        #expect(received.header("Content-Length") == String(size))
        #expect(received.bodyByteCount < Int64(size))
        #expect(try FileManager.default.contentsOfDirectory(atPath: temporary.path) == [])
    }

    @Test func fileChangingSizeInMultipartPartExitsThree() async throws {
        let scratch = try ScratchFolder()
        let size = 48 * 1024 * 1024
        let path = try scratch.file("part.bin", [UInt8](repeating: 0x62, count: size))
        let server = try await TestHTTPServer.start(script: TestHTTPServer.Script { _, _ in
            _ = truncate(path, off_t(10))
            return .status(200)
        }, recordLimit: 0)
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "note=hi", "file@\(path);type=application/octet-stream"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains(path))
        #expect(try await server.waitForClosedConnections())
        let received = try #require(server.requests.first)
        #expect(!received.isComplete)
        #expect(received.bodyByteCount < Int64(received.header("Content-Length") ?? "") ?? 0)
    }

    @Test func dryRunToFullDiskFailsNamingThePath() async throws {
        let result = try await UploaderProcess.run(["--dry-run", "localhost:8080/up", "a=1", "-o", "/dev/full"])
        #expect(result.status != 0)
        #expect(result.status == 1)
        #expect(result.standardError == "uploader: cannot write to /dev/full: \(String(cString: strerror(ENOSPC)))\n")
    }

    @Test func responseToFullDiskFailsNamingThePath() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([.status(200, body: "response body")]))
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1", "-o", "/dev/full"])
        #expect(result.status == 1)
        #expect(result.standardError.contains("cannot write to /dev/full"), "\(result.standardError)")
        #expect(result.standardError.contains(String(cString: strerror(ENOSPC))))
        #expect(server.requests.count == 1)
    }

    @Test func unwritableOutputPathFailsBeforeSending() async throws {
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up", "a=1", "-o", "/nonexistent-dir/out.bin"])
        #expect(result.status == 2)  // bad input: nothing is sent to a response that has nowhere to go
        #expect(result.standardError.contains("/nonexistent-dir/out.bin"), "\(result.standardError)")
        #expect(server.requests.isEmpty)
    }

    @Test func connectionClosedMidBodyExitsThree() async throws {
        let scratch = try ScratchFolder()
        let path = try scratch.file("big.bin", [UInt8](repeating: 0x63, count: 8 * 1024 * 1024))
        let server = try await TestHTTPServer.start(script: .sequence([.closeConnection(afterBodyBytes: 64 * 1024)]), recordLimit: 0)
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["PUT", "localhost:\(server.port)/up", "--data", "@\(path)"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains("localhost:\(server.port)"), "\(result.standardError)")
        #expect(server.requests.count == 1)
    }
}
