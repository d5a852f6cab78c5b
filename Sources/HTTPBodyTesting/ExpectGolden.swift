public import HTTPBody
public import Testing

/// Checks that bytes match the golden file kept beside the test, recording
/// the file when it is missing.
///
/// The file is `__Snapshots__/<TestFile>/<test>.<name>` next to the calling
/// test's source file (`GoldenFile.init(named:testFilePath:testName:)`, in HTTPBodyGoldenFiles);
/// exclude that folder from the test target. A mismatch fails the test with a
/// readable diff. A missing file is recorded and the test fails, so a new case
/// is looked at once before it is trusted; `RECORD_GOLDEN=1` re-records every
/// case that differs; with `CI` set nothing is written
/// (`GoldenFile.Recording.environment(_:)`).
///
/// Works from Swift Testing and from XCTest: the failure goes to whichever
/// runs the calling test. Call it from the test's own task, not a detached
/// one, so the running Swift Testing test can be found.
///
/// A body alone is compared by its bytes:
///
/// ```swift
/// expectGolden(try await body.collect(), named: "form.multipart")
/// ```
///
/// - Parameters:
///   - bytes: What the code under test produced.
///   - name: The case's name with its extension, such as `upload.http`.
///   - fileID: The caller's `#fileID`, where a failure is reported.
///   - filePath: The caller's `#filePath`: the golden file is kept beside it.
///   - testName: The test's name, part of the golden file's name.
///   - line: The line a failure is reported at.
///   - column: The column a failure is reported at.
public func expectGolden(
    _ bytes: [UInt8],
    named name: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) {
    let golden = GoldenFile(named: name, testFilePath: "\(filePath)", testName: testName)
    guard let failure = golden.check(bytes) else { return }
    reportFailure(failure.description, fileID: fileID, filePath: filePath, line: line, column: column)
}

/// Checks that bytes match the golden file kept beside a test, for a Swift
/// Testing helper that passes its caller's `SourceLocation` along.
///
/// ```swift
/// func expectEncoded(_ value: Order, named name: String,
///                    testName: String = #function,
///                    sourceLocation: SourceLocation = #_sourceLocation) async throws {
///     let bytes = try await RequestBody.json(value).collect()
///     expectGolden(bytes, named: name, testName: testName, sourceLocation: sourceLocation)
/// }
/// ```
///
/// The golden file is kept beside `sourceLocation`'s file and recorded as for
/// the other overloads; see <doc:GoldenFileTests>.
///
/// - Parameters:
///   - bytes: What the code under test produced.
///   - name: The case's name with its extension, such as `upload.http`.
///   - testName: The test's name, part of the golden file's name.
///   - sourceLocation: Where the failure is reported; the golden file is
///     kept beside its file.
public func expectGolden(
    _ bytes: [UInt8],
    named name: String,
    testName: String = #function,
    sourceLocation: SourceLocation
) {
    let golden = GoldenFile(named: name, testFilePath: sourceLocation.filePath, testName: testName)
    guard let failure = golden.check(bytes) else { return }
    reportFailure(failure.description, at: sourceLocation)
}

/// Checks that a request, head and body as HTTP/1.1 sends them, matches the
/// golden file kept beside the test.
///
/// A `PreparedRequest` from RequestBuilder gives its bytes with `raw()`:
///
/// ```swift
/// try await expectGolden(request.raw(), named: "upload.http")
/// ```
///
/// The golden file is kept and recorded as for bytes; see
/// <doc:GoldenFileTests>.
///
/// - Parameters:
///   - request: The request; its body is read once, into memory.
///   - name: The case's name with its extension, such as `upload.http`.
///   - fileID: The caller's `#fileID`, where a failure is reported.
///   - filePath: The caller's `#filePath`: the golden file is kept beside it.
///   - testName: The test's name, part of the golden file's name.
///   - line: The line a failure is reported at.
///   - column: The column a failure is reported at.
/// - Throws: What reading the body throws, such as a file that has gone, or
///   `RequestBodyError` past 64 MiB.
public func expectGolden(
    _ request: RawHTTPRequest,
    named name: String,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    testName: String = #function,
    line: UInt = #line,
    column: UInt = #column
) async throws {
    let bytes = try await request.collect()
    expectGolden(bytes, named: name, fileID: fileID, filePath: filePath, testName: testName, line: line, column: column)
}
