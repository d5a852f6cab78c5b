public import Foundation

/// A file that holds exactly the bytes some code must produce, and the rules
/// for comparing with it and recording it.
///
/// Most tests call `expectGolden(_:named:)`,
/// which finds the file beside the test and reports a failure to the running
/// test. Use `GoldenFile` directly to keep golden files somewhere else or to
/// report failures your own way:
///
/// ```swift
/// let golden = GoldenFile(url: fixtures.appending(path: "upload.http"))
/// if let failure = golden.check(bytes, recording: .never) {
///     print(failure)
/// }
/// ```
public struct GoldenFile: Sendable, Hashable {
    /// Where the golden bytes are kept.
    public let url: URL

    /// A golden file at a location of your choosing.
    public init(url: URL) {
        self.url = url
    }

    /// The golden file a test keeps beside its own source file, at
    /// `__Snapshots__/<TestFile>/<test>.<name>`: the layout of
    /// swift-snapshot-testing, so one `exclude: ["__Snapshots__"]` in the
    /// test target covers both.
    ///
    /// - Parameters:
    ///   - name: The case's name with its extension, such as `upload.http`.
    ///   - testFilePath: The path of the test's source file (`#filePath`).
    ///   - testName: The test function's name (`#function`); anything from
    ///     its first parenthesis on is dropped, so `upload()` becomes `upload`.
    public init(named name: String, testFilePath: String, testName: String) {
        let testFile = URL(filePath: testFilePath)
        let test = testName.prefix { $0 != "(" }
        self.url = testFile.deletingLastPathComponent()
            .appending(path: "__Snapshots__")
            .appending(path: testFile.deletingPathExtension().lastPathComponent)
            .appending(path: "\(test).\(name)")
    }

    /// Compares `actual` with the golden bytes, recording them as `recording`
    /// allows.
    ///
    /// Writing a file always returns a failure, so a recorded case is looked
    /// at once before it is trusted, and a run that recorded anything never
    /// passes.
    ///
    /// - Parameters:
    ///   - actual: What the code under test produced.
    ///   - recording: When the file may be written; by default read from the
    ///     environment (``Recording/environment(_:)``).
    /// - Returns: `nil` when the file holds exactly `actual`; otherwise what
    ///   went wrong, with a readable diff when the bytes differ.
    public func check(_ actual: [UInt8], recording: Recording = .environment()) -> Failure? {
        guard FileManager.default.fileExists(atPath: url.path) else {
            guard recording != .never else {
                return Failure(.missing, "Golden file \(url.path) is missing; record it by running the test where CI is not set, check it and commit it.")
            }
            return write(actual) ?? Failure(.recorded, "Recorded golden file \(url.path) (\(actual.count) bytes); check it and run the test again.")
        }
        let expected: [UInt8]
        do {
            expected = [UInt8](try Data(contentsOf: url))
        } catch {
            return Failure(.fileSystem, "Could not read golden file \(url.path): \(error)")
        }
        guard expected != actual else { return nil }
        // A multipart body is compared part by part; anything else byte by byte.
        let diff = MultipartDiff(expected: expected, actual: actual)?.description
            ?? ByteDiff(expected: expected, actual: actual).description
        guard recording == .all else {
            return Failure(.mismatch, "Bytes differ from golden file \(url.path) \(diff)\nRe-record with RECORD_GOLDEN=1 if the change is intended.")
        }
        return write(actual) ?? Failure(.recorded, "Re-recorded golden file \(url.path); the old bytes differed \(diff)")
    }

    /// Writes `bytes` to the file, creating its folder; a failure if that fails.
    private func write(_ bytes: [UInt8]) -> Failure? {
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(bytes).write(to: url)
            return nil
        } catch {
            return Failure(.fileSystem, "Could not record golden file \(url.path): \(error)")
        }
    }
}
