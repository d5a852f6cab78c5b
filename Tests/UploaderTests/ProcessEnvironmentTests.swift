import Foundation
import Testing

@testable import uploader

/// The environment the tool reads once, by bytes: what Foundation reads
/// for this process, and each entry split as `getenv(3)` would find it.
@Suite struct ProcessEnvironmentTests {
    @Test func holdsWhatFoundationReads() {
        let foundation = ProcessInfo.processInfo.environment
        #expect(!foundation.isEmpty)
        #expect(ProcessEnvironment.variables == foundation)
    }

    @Test func splitsEachEntryAtItsFirstEqualsSign() {
        let entries: [[UInt8]] = [
            Array("TOKEN=a=b==".utf8),
            Array("EMPTY=".utf8),
            Array("NOEQUALS".utf8),
            Array("TWICE=first".utf8),
            Array("TWICE=second".utf8),
            Array("BYTES=caf".utf8) + [0xE9],
        ]
        let strings = entries.map { bytes in (bytes + [0]).withUnsafeBufferPointer { strdup(UnsafeRawPointer($0.baseAddress!).assumingMemoryBound(to: CChar.self)) } }
        defer { strings.forEach { free($0) } }
        let variables = (strings + [nil]).withUnsafeBufferPointer { ProcessEnvironment.variables(in: $0.baseAddress!) }
        #expect(variables == ["TOKEN": "a=b==", "EMPTY": "", "TWICE": "first", "BYTES": "caf\u{FFFD}"])
    }
}
