import Foundation
import HTTPBody
import TestSupport
import Testing

/// A body read from an offset (`RequestBody.slice(_:)`, what a resumable
/// upload sends) starts there through its source's `skip(_:)`: a multipart
/// form steps over its parts and seeks into the file part that holds the
/// offset, rather than reading everything before it for every chunk.
@Suite struct BodyOffsetStartTests {
    /// Bytes that differ at every offset, so a slice off by one cannot match.
    static func pattern(_ count: Int, seed: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: ($0 &+ seed) &* 2_654_435_761 >> 13) }
    }

    /// This test's files, removed after it.
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("body-offset-tests") }

    /// A form of a text field, two files and a text field.
    func formBody(_ boundary: MultipartBoundary, first: [UInt8], second: [UInt8]) throws -> RequestBody {
        let firstFile = folder.appending(path: "first.bin")
        let secondFile = folder.appending(path: "second.bin")
        try Data(first).write(to: firstFile)
        try Data(second).write(to: secondFile)
        var form = MultipartFormData(boundary: boundary)
        form.append("caption text", name: "title")
        try form.appendFile(at: firstFile, name: "first", contentType: .octetStream)
        try form.appendFile(at: secondFile, name: "second", contentType: .octetStream)
        form.append("after the files", name: "note")
        return try RequestBody.multipart(form)
    }

    /// The form's body, its encoded bytes, and where each file's content starts in them.
    func form(_ boundary: MultipartBoundary, first: [UInt8], second: [UInt8]) async throws -> (all: [UInt8], body: RequestBody, fileStarts: [Int]) {
        let body = try formBody(boundary, first: first, second: second)
        let all = try await body.collect(upTo: 8 * 1024 * 1024)
        let starts = [first, second].map { content in
            all.indices.first { all[$0...].starts(with: content.prefix(64)) } ?? -1
        }
        return (all, body, starts)
    }

    /// Offsets inside the first part's headers, inside a text value, at and
    /// around each file part's first and last byte, inside the closing
    /// delimiter, and the very end.
    func offsets(all: [UInt8], fileStarts: [Int], lengths: [Int]) -> [Int] {
        var offsets = [0, 1, 5, 40, all.count - 3, all.count - 1, all.count]
        for (start, length) in zip(fileStarts, lengths) {
            offsets += [start - 1, start, start + 1, start + length / 2, start + length - 1, start + length, start + length + 1]
        }
        return offsets.filter { (0...all.count).contains($0) }
    }

    @Test(
        "A multipart body started at an offset yields exactly the encoding's bytes from there",
        arguments: [try MultipartBoundary.constant("offset-start-boundary-42"), try MultipartBoundary.resuming("offset-start-boundary-42")]
    )
    func multipartFromOffset(boundary: MultipartBoundary) async throws {
        let first = Self.pattern(1_500_000, seed: 1)
        let second = Self.pattern(70_000, seed: 7)
        let (all, body, starts) = try await form(boundary, first: first, second: second)
        #expect(starts.allSatisfy { $0 > 0 })
        for offset in offsets(all: all, fileStarts: starts, lengths: [first.count, second.count]) {
            let rest = try await body.slice(Int64(offset)..<Int64(all.count)).collect(upTo: 8 * 1024 * 1024)
            #expect(rest == Array(all[offset...]), "from offset \(offset)")
            // A bounded slice from there too: what one chunk of an upload is.
            let end = min(all.count, offset + 65_537)
            let chunk = try await body.slice(Int64(offset)..<Int64(end)).collect()
            #expect(chunk == Array(all[offset..<end]), "\(offset)..<\(end)")
        }
    }

    @Test("A caller-chosen boundary is looked for in what a slice sends, not in the file bytes before it")
    func scannedBoundaryBeforeTheOffsetIsNotRead() async throws {
        let boundary = "offset-start-boundary-42"
        var content = Self.pattern(300_000, seed: 3)
        content.replaceSubrange(1000..<(1000 + boundary.utf8.count), with: Array(boundary.utf8))
        // The same bytes with a boundary that is not scanned: what to compare with.
        let (all, _, starts) = try await form(.resuming(boundary), first: content, second: [1, 2, 3])
        let scanned = try formBody(.constant(boundary), first: content, second: [1, 2, 3])
        let occurrence = starts[0] + 1000

        // Past the occurrence: the bytes before the offset are not read, so
        // the slice is sent (each chunk of a resumed upload starts so).
        let after = occurrence + boundary.utf8.count
        let rest = try await scanned.slice(Int64(after)..<Int64(all.count)).collect(upTo: 8 * 1024 * 1024)
        #expect(rest == Array(all[after...]))

        // Starting inside the occurrence: the part of it the slice sends is
        // still found, with the bytes just before the offset.
        let error = await #expect(throws: MultipartError.self) {
            _ = try await scanned.slice(Int64(occurrence + 3)..<Int64(all.count)).collect(upTo: 8 * 1024 * 1024)
        }
        #expect(error?.code == .boundaryInContent)
    }

    @Test("A source of your own that implements skip(_:) is asked to skip, not to produce the bytes before a slice")
    func customSourceSkips() async throws {
        let bytes = Self.pattern(10_000, seed: 5)
        let produced = ProducedCount()
        let body = RequestBody(contentType: nil, length: Int64(bytes.count), isReplayable: true) {
            CountingSource(bytes: bytes, produced: produced)
        }
        let slice = try await body.slice(9_000..<10_000).collect()
        #expect(slice == Array(bytes[9_000...]))
        #expect(produced.value == 1_000)
    }
}

/// Bytes a ``CountingSource`` produced, across reads: `@unchecked` because
/// the lock guards the count.
private final class ProducedCount: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    var value: Int { lock.withLock { count } }
    func add(_ bytes: Int) { lock.withLock { count += bytes } }
}

/// In-memory bytes that count what they produce and seek when skipping.
private struct CountingSource: ChunkSource {
    let bytes: [UInt8]
    let produced: ProducedCount
    var position = 0

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        guard position < bytes.count else { return nil }
        let end = min(bytes.count, position + maximumLength)
        defer { position = end }
        produced.add(end - position)
        return BodyChunk(.holding(Array(bytes[position..<end])))
    }

    mutating func skip(_ count: Int64) async throws -> Int64 {
        let step = min(Int(count), bytes.count - position)
        position += step
        return Int64(step)
    }
}
