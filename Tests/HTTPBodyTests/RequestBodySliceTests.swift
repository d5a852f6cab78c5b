import Foundation
import HTTPBody
import TestSupport
import Testing

/// `RequestBody.slice(_:)`: the bytes a resumable upload sends from an offset.
@Suite struct RequestBodySliceTests {
    /// 3 MiB of bytes that differ at every offset a slice might start at.
    static let pattern: [UInt8] = (0..<(3 * 1024 * 1024)).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }

    static let ranges: [Range<Int64>] = [0..<0, 0..<1, 1..<2, 7..<1_048_583, 1_048_576..<3_145_728, 3_145_727..<3_145_728, 0..<3_145_728]

    /// This test's files, removed after it.
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("body-slice-tests") }

    func fileBody() throws -> RequestBody {
        let file = folder.appending(path: "data.bin")
        try Data(Self.pattern).write(to: file)
        return try RequestBody.file(at: file, contentType: .octetStream)
    }

    @Test("A file body's slice is those bytes of the file, read from the offset", arguments: ranges)
    func fileSlice(range: Range<Int64>) async throws {
        let whole = try fileBody()
        let slice = try whole.slice(range)
        #expect(slice.length == range.upperBound - range.lowerBound)
        let bytes = try await slice.collect()
        #expect(bytes == Array(Self.pattern[Int(range.lowerBound)..<Int(range.upperBound)]))
        // Replayable: a second read gives the same bytes.
        #expect(try await slice.collect() == bytes)
    }

    static let multipartRanges: [Range<Int64>] = [0..<10, 100..<2_000_000, 5..<3_145_900, 3_145_800..<3_145_900]

    @Test("A multipart body's slice is those bytes of the encoded form (scanned boundary: bytes read and dropped)", arguments: multipartRanges)
    func multipartSlice(range: Range<Int64>) async throws {
        try await expectMultipartSlice(range, boundary: .constant("slice-boundary-0123456789"))
    }

    @Test("A multipart body's slice is those bytes of the encoded form (resumed boundary: parts skipped, the file seeked)", arguments: multipartRanges)
    func multipartSliceSkipping(range: Range<Int64>) async throws {
        try await expectMultipartSlice(range, boundary: .resuming("slice-boundary-0123456789"))
    }

    func expectMultipartSlice(_ range: Range<Int64>, boundary: MultipartBoundary) async throws {
        let file = folder.appending(path: "data.bin")
        try Data(Self.pattern).write(to: file)
        var form = MultipartFormData(boundary: boundary)
        form.append("caption", name: "title")
        try form.appendFile(at: file, name: "file", contentType: .octetStream)
        let whole = try RequestBody.multipart(form)
        let all = try await whole.collect(upTo: 8 * 1024 * 1024)
        let bytes = try await whole.slice(range).collect(upTo: 8 * 1024 * 1024)
        #expect(bytes == Array(all[Int(range.lowerBound)..<Int(range.upperBound)]))
    }

    @Test("A range outside the body is refused, naming the range and the length")
    func rangeOutsideIsRefused() throws {
        let body = RequestBody.data(Data("hello".utf8))
        let error = #expect(throws: RequestBodyError.self) { try body.slice(2..<6) }
        #expect(error?.code == .notSliceable)
        #expect(error?.description.contains("2..<6") == true)
        #expect(error?.description.contains("5 bytes") == true)
    }

    @Test("A stream cannot be sliced")
    func streamIsRefused() throws {
        let stream = AsyncStream<[UInt8]> { $0.finish() }
        let body = RequestBody.stream(stream, length: 0)
        let error = #expect(throws: RequestBodyError.self) { try body.slice(0..<0) }
        #expect(error?.code == .notSliceable)
    }

    @Test("A gzip body, whose length is unknown, cannot be sliced")
    func gzipIsRefused() throws {
        let body = RequestBody.data(Data("hello".utf8)).gzipped()
        let error = #expect(throws: RequestBodyError.self) { try body.slice(0..<1) }
        #expect(error?.description.contains("length is not known") == true)
    }
}
