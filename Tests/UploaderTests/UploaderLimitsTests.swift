import Foundation
import TestSupport
import Testing

/// Limits of the machine and of the command line (issue 24.11, 24.16).
@Suite struct UploaderLimitsTests {
    /// Too few file descriptors: one line and exit 3, never NIO's fatal
    /// error (SIGILL) or a false "DNS error" (issue 24.11).
    @Test(arguments: [
        ("ulimit -n 6", "localhost:1/up a=1"),
        ("ulimit -n 9", "localhost:1/up a=1"),
        ("ulimit -n 16", "s3://bucket-ok/k Package.swift --concurrency 64 --endpoint-url http://127.0.0.1:1"),
    ])
    func tooFewDescriptorsIsOneLineAndExitThree(limit: String, arguments: String) async throws {
        let result = try await UploaderProcess.runShell(
            "(\(limit); AWS_ACCESS_KEY_ID=a AWS_SECRET_ACCESS_KEY=b exec \"$UPLOADER\" \(arguments)); echo \"exit $?\" >&2",
            currentDirectory: TestPackage.root
        )
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 2, "\(result.standardError)")
        #expect(lines.first?.hasPrefix("uploader: too many open files (the limit is ") == true, "\(result.standardError)")
        #expect(lines.last == "exit 3", "\(result.standardError)")
    }

    /// 40,000 header items, some removed again: every field in order, in
    /// time linear in their number (issue 24.16: 20,000 took 8.4 s, each
    /// item scanning the list and copying the builder's fields, so 40,000
    /// took about 34 s of processor time; now about 1 s). Bounded in
    /// processor time, which other tests on the same cores do not inflate.
    @Test func manyHeaderItemsAreLinear() async throws {
        let count = 40_000
        var arguments = ["--dry-run", "localhost:1/up", "Accept:"]
        for index in 0..<count {
            arguments.append("X-\(index):v\(index)")
            if index % 10_000 == 0 { arguments.append("X-\(index):") }  // removes the one just given
        }
        let result = try await UploaderProcess.run(arguments, processorSecondsAtMost: 10 * TestTime.scale)
        #expect(result.status == 0, "\(result.standardError) (a signal's status means the processor time ran out)")
        let lines = result.outputText.components(separatedBy: "\r\n").filter { $0.hasPrefix("X-") }
        #expect(lines.count == count - 4)
        #expect(lines.first == "X-1: v1" && lines.last == "X-\(count - 1): v\(count - 1)")
        #expect(!result.outputText.contains("Accept:"))
    }
}
