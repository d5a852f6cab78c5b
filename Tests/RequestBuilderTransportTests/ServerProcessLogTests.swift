import Foundation
import TestSupport
import Testing

/// The test servers' standard error: kept for the message of a server that
/// fails to start, and left nowhere on disk (a file with no name), so a run
/// of the suite leaves no logs in the temporary folder.
@Suite struct ServerProcessLogTests {
    @Test func aServerThatExitsAtStartIsReportedWithWhatItWroteToStandardError() async throws {
        let error = await #expect(throws: TestHTTPServerError.self) {
            _ = try await ServerProcess.start(
                name: "failing-server",
                executable: "/bin/sh",
                arguments: ["-c", "echo 'cannot read config.toml' >&2; exit 3"]
            )
        }
        #expect(error?.description.contains("failing-server closed its output") == true)
        #expect(error?.description.contains("cannot read config.toml") == true)
    }

    @Test func aLongLogIsShownByItsLastLines() async throws {
        // About 100 KB of lines, more than the 64 KiB read from the end.
        let script = #"i=0; while [ $i -lt 3000 ]; do echo "line $i of a long log"; i=$((i+1)); done >&2; echo 'the last line' >&2; exit 1"#
        let error = await #expect(throws: TestHTTPServerError.self) {
            _ = try await ServerProcess.start(name: "chatty-server", executable: "/bin/sh", arguments: ["-c", script])
        }
        let description = error?.description ?? ""
        #expect(description.hasSuffix("line 2999 of a long log\nthe last line"))
        #expect(!description.contains("line 2979 "), "only the last 20 lines")
    }

    @Test func aRunningServersLogIsReadableButHasNoName() async throws {
        let name = "log-check-\(UUID().uuidString)"
        let server = try await ServerProcess.start(
            name: name,
            executable: "/bin/sh",
            arguments: ["-c", "echo 'starting up' >&2; echo 'listening 127.0.0.1:9'; exec cat"]
        )
        defer { server.stop() }
        #expect(server.logExcerpt.contains("starting up"))
        let left = try FileManager.default.contentsOfDirectory(atPath: FileManager.default.temporaryDirectory.path)
        #expect(!left.contains { $0.hasPrefix(name) })
        server.stop()
        #expect(server.logExcerpt.contains("starting up"), "still readable after the server stops")
    }
}
