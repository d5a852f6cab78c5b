import Testing
#if canImport(XCTest)
import XCTest
#endif

// Swift Testing's `Issue.record` called from an XCTest test is silently
// dropped on Linux (Swift 6.3), so a golden mismatch would pass there: when no
// Swift Testing test is running, XCTest is told with `XCTFail` instead.
// Without XCTest the issue is recorded all the same, so it is never lost.

/// Fails the running test at a location given as literals.
func reportFailure(_ message: String, fileID: StaticString, filePath: StaticString, line: UInt, column: UInt) {
    #if canImport(XCTest)
    if Test.current == nil {
        XCTFail(message, file: filePath, line: line)
        return
    }
    #endif
    let location = SourceLocation(fileID: "\(fileID)", filePath: "\(filePath)", line: Int(line), column: Int(column))
    Issue.record(Comment(rawValue: message), sourceLocation: location)
}

/// Fails the running test at a Swift Testing source location.
func reportFailure(_ message: String, at location: SourceLocation) {
    #if canImport(XCTest)
    if Test.current == nil {
        // XCTest takes only literal locations, so the message carries this one.
        XCTFail("\(location): \(message)")
        return
    }
    #endif
    Issue.record(Comment(rawValue: message), sourceLocation: location)
}
