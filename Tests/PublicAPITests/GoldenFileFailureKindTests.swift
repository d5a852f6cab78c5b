import Foundation
import HTTPBodyTesting
import Testing

/// A failure's kind reads as its name wherever a test or a log shows it:
/// interpolated, reflected, inside an optional, and dumped (which Swift
/// Testing's expanded expressions and `dump` build from its mirror).
@Suite struct GoldenFileFailureKindTests {
    @Test("A golden-file failure's kind prints as its name")
    func kindPrintsAsItsName() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "golden-kind-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let failure = try #require(GoldenFile(url: folder.appending(path: "a.http")).check(Array("x".utf8), recording: .missing))
        #expect("\(failure.kind)" == "recorded")
        #expect(String(reflecting: failure.kind) == "recorded")
        #expect("\(Optional(failure.kind) as Any)" == "Optional(recorded)")
        var dumped = ""
        dump(failure.kind, to: &dumped)
        #expect(dumped == "- recorded\n")
        #expect(Mirror(reflecting: failure.kind).children.isEmpty)
    }
}
