import Foundation
import HTTPBody
import HTTPBodyTesting
import MultipartKit
import TestSupport
import Testing

/// One part as an independent parser (multipart-kit's `MultipartParser`) saw it.
struct ParsedPart: Equatable, CustomStringConvertible {
    /// Header lines in order, `Name: value`.
    var headers: [String]
    var body: [UInt8]

    var description: String { "\(headers) + \(body.count) bytes" }
}

/// Parses a body with multipart-kit, which shares no code with ours.
func parseWithMultipartKit(_ bytes: [UInt8], boundary: String) throws -> [ParsedPart] {
    final class Collector {
        var parts: [ParsedPart] = []
        var current = ParsedPart(headers: [], body: [])
    }
    let collector = Collector()
    let parser = MultipartParser(boundary: boundary)
    parser.onHeader = { name, value in collector.current.headers.append("\(name): \(value)") }
    parser.onBody = { buffer in collector.current.body.append(contentsOf: buffer.readableBytesView) }
    parser.onPartComplete = {
        collector.parts.append(collector.current)
        collector.current = ParsedPart(headers: [], body: [])
    }
    try parser.execute(bytes)
    return collector.parts
}

/// Encodes a form twice (default chunks and tiny 7-byte chunks, which cross
/// every seam), checks both agree and match the declared length, compares with
/// the golden file, and checks multipart-kit parses it into `expected`.
func expectMultipart(
    _ form: MultipartFormData,
    named name: String,
    parts expected: [ParsedPart],
    function: String = #function,
    sourceLocation: SourceLocation = #_sourceLocation
) async throws {
    let body = try RequestBody.multipart(form)
    #expect(body.contentType?.description == "multipart/form-data; boundary=\(form.boundary.value)", sourceLocation: sourceLocation)
    let bytes = try await body.collect()
    if body.isReplayable {
        var small: [UInt8] = []
        for try await chunk in body.chunks(maximumChunkSize: 7) {
            #expect(!chunk.isEmpty && chunk.count <= 7, sourceLocation: sourceLocation)
            small += chunk
        }
        #expect(small == bytes, "7-byte chunks must give the same bytes", sourceLocation: sourceLocation)
    }
    if let length = body.length {
        #expect(length == Int64(bytes.count), "declared length must match the bytes", sourceLocation: sourceLocation)
    }
    #expect(bytes.starts(with: Array("--\(form.boundary.value)\r\n".utf8)) || form.count == 0, sourceLocation: sourceLocation)
    #expect(bytes.suffix(form.boundary.value.utf8.count + 6).elementsEqual(Array("--\(form.boundary.value)--\r\n".utf8)), sourceLocation: sourceLocation)
    expectGolden(bytes, named: name, testName: function, sourceLocation: sourceLocation)
    let parsed = try parseWithMultipartKit(bytes, boundary: form.boundary.value)
    #expect(parsed.count == expected.count, "part count", sourceLocation: sourceLocation)
    for (index, (actual, wanted)) in zip(parsed, expected).enumerated() {
        #expect(actual.headers == wanted.headers, "headers of part \(index)", sourceLocation: sourceLocation)
        #expect(actual.body == wanted.body, "bytes of part \(index)", sourceLocation: sourceLocation)
    }
}

/// A part as the tests expect multipart-kit to see it.
func part(_ disposition: String, _ otherHeaders: [String] = [], body: some Sequence<UInt8>) -> ParsedPart {
    ParsedPart(headers: ["Content-Disposition: form-data; \(disposition)"] + otherHeaders, body: Array(body))
}

/// A part whose body is text.
func part(_ disposition: String, _ otherHeaders: [String] = [], text: String) -> ParsedPart {
    part(disposition, otherHeaders, body: Array(text.utf8))
}

/// A temporary directory for one test, removed by the caller.
func makeTemporaryDirectory() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appending(path: "multipart-tests-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}

/// The fixed boundary every golden case uses.
func goldenBoundary() throws -> MultipartBoundary {
    try .constant("golden-boundary-7MA4YWxkTrZu0gW")
}

/// The fixtures folder next to this file.
let fixtures = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "__Fixtures__")
