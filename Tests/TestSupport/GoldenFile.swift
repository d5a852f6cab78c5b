import Foundation
public import Testing

/// Compares bytes with a golden file that holds exactly what they must be.
///
/// Golden files live beside the test file that owns them, at
/// `__Snapshots__/<TestFile>/<test>.<name>` (the layout of
/// swift-snapshot-testing). A missing golden file is recorded and the test
/// fails, so a new case is looked at once before it is trusted; setting
/// `RECORD_GOLDEN=1` re-records every case a run reaches. On CI (`CI` set)
/// nothing is ever written: a missing file is a failure.
///
/// - Parameters:
///   - bytes: What the code under test produced.
///   - name: The case's name with its extension, such as `unicode.http`.
public func expectGolden(
    _ bytes: [UInt8],
    named name: String,
    filePath: String = #filePath,
    function: String = #function,
    sourceLocation: SourceLocation = #_sourceLocation
) {
    let testFile = URL(filePath: filePath)
    let folder = testFile.deletingLastPathComponent()
        .appending(path: "__Snapshots__")
        .appending(path: testFile.deletingPathExtension().lastPathComponent)
    let testName = function.prefix { $0 != "(" }
    let golden = folder.appending(path: "\(testName).\(name)")
    let environment = ProcessInfo.processInfo.environment
    let isCI = environment["CI"].map { !$0.isEmpty && $0 != "false" } ?? false
    let reRecord = environment["RECORD_GOLDEN"] == "1" && !isCI

    guard !reRecord, let expected = try? Data(contentsOf: golden) else {
        if isCI {
            Issue.record("Golden file \(golden.path) is missing; record it locally and commit it", sourceLocation: sourceLocation)
            return
        }
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data(bytes).write(to: golden)
            Issue.record("Recorded golden file \(golden.path); check it and run the test again", sourceLocation: sourceLocation)
        } catch {
            Issue.record("Could not record golden file \(golden.path): \(error)", sourceLocation: sourceLocation)
        }
        return
    }
    let expectedBytes = [UInt8](expected)
    guard expectedBytes != bytes else { return }
    let offset = zip(expectedBytes, bytes).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        ?? min(expectedBytes.count, bytes.count)
    Issue.record(
        """
        Bytes differ from golden file \(golden.lastPathComponent) at offset \(offset) \
        (expected \(expectedBytes.count) bytes, got \(bytes.count)).
        expected: \(excerpt(expectedBytes, around: offset))
        actual:   \(excerpt(bytes, around: offset))
        Re-record with RECORD_GOLDEN=1 if the change is intended.
        """,
        sourceLocation: sourceLocation
    )
}

/// A short, escaped view of the bytes around a position, for failure messages.
func excerpt(_ bytes: [UInt8], around offset: Int) -> String {
    let start = max(0, offset - 24)
    let end = min(bytes.count, offset + 40)
    guard start < end else { return "(end)" }
    return String(decoding: bytes[start..<end], as: UTF8.self).debugDescription
}
