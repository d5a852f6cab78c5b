// On Linux, Swift Testing's issues raised inside an XCTest test are dropped
// (Swift 6.3), so expectGolden must fail an XCTest test through XCTest. This
// checks that it does, with corelibs-xctest's failure hook; Darwin's XCTest
// has XCTExpectFailure for the same check, unbuilt here.
#if os(Linux)
import Foundation
import HTTPBodyTesting
import XCTest

final class GoldenFileXCTests: XCTestCase {
    /// Failures caught while `isCapturing`, instead of failing the test.
    private var captured: [String] = []
    private var isCapturing = false

    override func recordFailure(withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool) {
        guard isCapturing else {
            return super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
        captured.append(description)
    }

    func testMismatchFailsAnXCTestTest() {
        // Under /dev/null, a file, nothing can exist or be recorded: a failure
        // whatever the environment or user.
        isCapturing = true
        expectGolden([1, 2, 3], named: "absent-\(UUID().uuidString).bin", filePath: "/dev/null/GoldenFileXCTests.swift")
        isCapturing = false
        XCTAssertEqual(captured.count, 1)
        XCTAssertTrue(captured.first?.contains("/dev/null/__Snapshots__/GoldenFileXCTests/testMismatchFailsAnXCTestTest.absent-") == true, "\(captured)")
    }
}
#endif
