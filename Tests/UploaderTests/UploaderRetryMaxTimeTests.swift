import Foundation
import TestSupport
import Testing

/// `--retry-max-time SECONDS`, curl's: one budget for every attempt of a
/// run, the resumable and object-store retries included, through the built
/// binary against a server that accepts the connection and never answers.
@Suite struct UploaderRetryMaxTimeTests {
    /// Runs `arguments` and returns the result with the time it took.
    static func timed(_ arguments: [String]) async throws -> (UploaderProcess.Result, Duration) {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try await UploaderProcess.run(arguments + ["--no-progress"])
        return (result, clock.now - start)
    }

    /// `--timeout 3 --retry-max-time 5`: the first attempt times out at
    /// 3 s, a retry gets what is left of the 5 s, and none follows; without
    /// the budget, six attempts of 3 s each (23 s for `--tus` before). The
    /// attempts are counted from `-v` (each request head), not timed, so a
    /// loaded machine cannot fail the test; at rest the run takes 5.0-5.5 s.
    @Test(arguments: [["--tus"], ["--resumable"], ["--retry", "9"]])
    func theRunEndsWithinTheBudget(kind: [String]) async throws {
        let listener = try SilentListener()
        defer { listener.close() }
        let fixture = try UploadFixture(size: 4096, name: "video.bin")
        defer { fixture.remove() }
        let resumable = kind != ["--retry", "9"]
        let state = resumable ? ["--state-dir", fixture.folder.appending(path: "state").path] : []
        let (result, elapsed) = try await Self.timed(kind + state + [
            "http://127.0.0.1:\(listener.port)/files", "video@\(fixture.file.path)",
            "--timeout", "3", "--retry-max-time", "5", "-v",
        ])
        #expect(result.status == 3, "\(result.standardError)")
        let attempts = result.standardError.split(separator: "\n").filter { $0.contains(" /files HTTP/1.1") }
        #expect((1...2).contains(attempts.count), "\(result.standardError)")
        #expect(result.standardError.contains("timed out"), "\(result.standardError)")
        #expect(elapsed < TestTime.liveness)
    }

    @Test(arguments: ["0", "-1", "abc", "1000001"])
    func aBudgetThatIsNotAPositiveNumberIsBadInput(value: String) async throws {
        let result = try await UploaderProcess.run(["--retry-max-time", value, "--dry-run", "http://127.0.0.1:1/up", "a=b"])
        #expect(result.status == 2)
        #expect(result.standardError.contains("--retry-max-time"), "\(result.standardError)")
    }
}
