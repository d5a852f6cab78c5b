import Foundation
@testable import HTTPBody
import Testing

/// A file error of Foundation's, put in the C library's words without
/// `NSError` (whose bridging would link the whole of Foundation on Linux).
@Suite struct FileErrorTextTests {
    @Test func aMissingFileReadsAsTheSystemSaysIt() throws {
        let missing = URL(filePath: "/nonexistent-\(UUID())/key.pem")
        let error = #expect(throws: (any Error).self) { try Data(contentsOf: missing) }
        #expect(SystemErrorText.describe(fileError: try #require(error)) == "No such file or directory")
    }

    @Test func aFolderReadAsAFileReadsAsTheSystemSaysIt() throws {
        let error = #expect(throws: (any Error).self) { try Data(contentsOf: FileManager.default.temporaryDirectory) }
        #expect(SystemErrorText.describe(fileError: try #require(error)) == SystemErrorText.describe(EISDIR))
    }

    @Test func aCocoaErrorWithoutAnUnderlyingOneIsNamedByItsCode() {
        #expect(SystemErrorText.describe(fileError: CocoaError(.fileReadNoSuchFile)) == "No such file or directory")
        #expect(SystemErrorText.describe(fileError: CocoaError(.fileReadNoPermission)) == "Permission denied")
        #expect(SystemErrorText.describe(fileError: CocoaError(.fileReadTooLarge)) == SystemErrorText.describe(EFBIG))
        #expect(SystemErrorText.describe(fileError: CocoaError(.fileReadCorruptFile)) == "file error (CocoaError code \(CocoaError.Code.fileReadCorruptFile.rawValue))")
    }

    @Test func anotherErrorIsDescribed() {
        struct Odd: Error, CustomStringConvertible { var description: String { "odd failure" } }
        #expect(SystemErrorText.describe(fileError: Odd()) == "odd failure")
    }
}
