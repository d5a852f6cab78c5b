import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// A multipart upload to moto killed with SIGKILL while the store holds some
/// but not all of its parts, then the same command run again: the resume
/// checks of the single and the recursive object upload tests.
///
/// Both the kill and what the store holds then are decided by events, not by
/// the clock: the first run goes through a ``FaultProxy`` that holds every
/// connection once two and a half parts have gone through, so the store can
/// never hold all the parts; the test asks the store (ListParts, through
/// boto3) until it holds one, and only then kills. The proxy lets the second
/// run through and counts what it sends.
struct KilledMultipartUpload {
    /// `--part-size`.
    static let partSize = 5 * 1024 * 1024
    /// `--concurrency`: parts in flight at once.
    static let concurrency = 2
    /// What the proxy forwards of the first run. With at most `concurrency`
    /// parts in flight, each short of a whole part and its head, at least one
    /// whole part has gone through when the hold starts (heads and small
    /// requests being far below half a part), and never three.
    static let holdAfter = partSize * 5 / 2

    let boto3: Boto3Client
    let bucket: String
    /// The key of the object sent in parts.
    let key: String
    /// Its size in bytes; more than `holdAfter`.
    let size: Int
    /// `--state-dir`.
    let stateDirectory: URL

    /// Runs `uploader` with `arguments` (the target and what to upload, plus
    /// any option but those of parts, state and endpoint), kills it once the
    /// store holds a part of `key`, and runs it again. Checks that the first
    /// run died of the kill with some but not all parts stored, and that the
    /// second succeeded, sent only the missing parts and left no state; the
    /// stored object is the caller's to check.
    func run(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) async throws {
        try #require(size > Self.holdAfter, "the hold could let every part through", sourceLocation: sourceLocation)
        let proxy = try await FaultProxy.start(target: boto3.server.endpoint, cutAfter: nil, cuts: 0, holdAfter: Self.holdAfter)
        defer { proxy.stop() }
        let arguments = arguments + [
            "--part-size", String(Self.partSize), "--concurrency", String(Self.concurrency), "--state-dir", stateDirectory.path,
            "--endpoint-url", proxy.url(path: "").absoluteString, "--no-progress",
        ]

        let first = try await runKilled(arguments, sourceLocation: sourceLocation)
        #expect(first.status == 128 + SIGKILL, "\(first.standardError)", sourceLocation: sourceLocation)
        let held = try await heldBytes(sourceLocation: sourceLocation)
        #expect(held > 0 && held <= Self.holdAfter, "the store held \(held) of \(size) bytes when the first run was killed", sourceLocation: sourceLocation)
        let before = try await proxy.release().clientToServerBytes

        let second = try await UploaderProcess.run(arguments, environment: boto3.environment)
        #expect(second.status == 0, "\(second.standardError)", sourceLocation: sourceLocation)
        let sent = try await proxy.stats().clientToServerBytes - before
        #expect(sent <= Int64(size - held + 1024 * 1024), "the rerun sent \(sent) bytes; the store held \(held) of \(size)", sourceLocation: sourceLocation)
        let states = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).filter { $0.hasSuffix(".json") }
        #expect(states.isEmpty, "\(states)", sourceLocation: sourceLocation)
    }

    /// What ends the wait of the first run.
    private enum Event: Sendable {
        case exited(UploaderProcess.Result)
        /// The store held this many bytes of `key` (0: not within the liveness budget).
        case stored(Int)
    }

    /// The first run: killed as soon as the store holds a part, or left to
    /// end (the caller's status check then fails) if it ends first.
    private func runKilled(_ arguments: [String], sourceLocation: SourceLocation) async throws -> UploaderProcess.Result {
        let pidFile = FileManager.default.temporaryDirectory.appending(path: "killed-upload-\(UUID().uuidString).pid")
        defer { try? FileManager.default.removeItem(at: pidFile) }
        let exports = boto3.environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
        // The shell writes its process ID, then becomes the uploader (exec keeps the ID).
        let script = "echo $$ > '\(pidFile.path)' && exec env \(exports) \"$UPLOADER\" \(quoted)"
        return try await withThrowingTaskGroup(of: Event.self) { group in
            group.addTask { .exited(try await UploaderProcess.runShell(script)) }
            group.addTask { .stored(await firstPartStored(sourceLocation: sourceLocation)) }
            while let event = try await group.next() {
                switch event {
                case .stored(let bytes):
                    #expect(bytes > 0, "the store held no part of \(key) within \(TestTime.liveness)", sourceLocation: sourceLocation)
                    let text = try String(contentsOf: pidFile, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
                    let pid = try #require(pid_t(text), "the pid file held '\(text)'", sourceLocation: sourceLocation)
                    kill(pid, SIGKILL)
                case .exited(let result):
                    group.cancelAll()
                    return result
                }
            }
            throw TestHTTPServerError(description: "the first run's task ended without a result")
        }
    }

    /// Asks the store until it holds a part of `key` (its bytes), for at most
    /// the liveness budget (then 0); cancelled, stops asking (0). A question
    /// that fails is recorded and ends the wait with 0, so the held run is
    /// still killed (the task group could not end while it runs).
    private func firstPartStored(sourceLocation: SourceLocation) async -> Int {
        let deadline = ContinuousClock.now + TestTime.liveness
        do {
            while !Task.isCancelled, ContinuousClock.now < deadline {
                let held = try await heldBytes(sourceLocation: sourceLocation)
                if held > 0 { return held }
                // Only the spacing of the questions: the answer, not the time, decides.
                try? await Task.sleep(for: .milliseconds(50))
            }
        } catch {
            Issue.record(error, "asking the store for the parts of \(key)", sourceLocation: sourceLocation)
        }
        return 0
    }

    /// The bytes of the parts of `key` the store holds.
    private func heldBytes(sourceLocation: SourceLocation) async throws -> Int {
        try await boto3.unfinished(in: bucket, sourceLocation: sourceLocation).first { $0.key == key }?.bytes ?? 0
    }
}
