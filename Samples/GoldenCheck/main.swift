// Compares a file with a golden file, as a CI step outside any test would,
// and prints the readable diff when they differ: GoldenFile alone, so this
// program links neither XCTest nor Testing.
//
//     swift run golden-check Tests/.../expected.http /tmp/actual.http
//
// Exit status: 0 when the bytes match, 1 when they differ or the golden
// file is missing (nothing is ever recorded), 2 for bad arguments.

import Foundation
import HTTPBodyGoldenFiles

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let goldenPath = arguments.first, let actualPath = arguments.last else {
    FileHandle.standardError.write(Data("usage: golden-check GOLDEN-FILE ACTUAL-FILE\n".utf8))
    exit(2)
}
let actual: [UInt8]
do {
    actual = try [UInt8](Data(contentsOf: URL(filePath: actualPath)))
} catch {
    FileHandle.standardError.write(Data("golden-check: cannot read \(actualPath): \(error.localizedDescription)\n".utf8))
    exit(2)
}
if let failure = GoldenFile(url: URL(filePath: goldenPath)).check(actual, recording: .never) {
    print(failure)
    exit(1)
}
print("\(actualPath) matches \(goldenPath)")
