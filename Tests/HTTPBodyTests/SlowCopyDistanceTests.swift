import Foundation
@testable import HTTPBody
import Testing

/// Reading a file where the kernel would copy it at a slow distance (AMD's
/// `rep movsb` with the destination 1 to 31 bytes past the source, modulo a
/// page): the bytes go through a bounce buffer, and a multipart body ends
/// each chunk's share of a file on a page of the file, so that a part header
/// does not put every later read at such a distance.
@Suite struct SlowCopyDistanceTests {
    /// A file of `count` bytes that differ from their neighbours, so a read
    /// off by any number of bytes shows.
    private func patternedFile(_ count: Int, in directory: URL) throws -> (URL, [UInt8]) {
        let bytes = (0..<count).map { UInt8(truncatingIfNeeded: ($0 &* 131) ^ ($0 >> 8)) }
        let url = directory.appending(path: "patterned.bin")
        try Data(bytes).write(to: url)
        return (url, bytes)
    }

    /// Page-aligned memory of `count` bytes and a page more, so a test can
    /// read into it at any distance from a file offset.
    private func withPageAlignedMemory<Result>(_ count: Int, _ body: (UnsafeMutableRawPointer) throws -> Result) rethrows -> Result {
        let memory = UnsafeMutableRawBufferPointer.allocate(byteCount: count + 4096, alignment: 4096)
        defer { memory.deallocate() }
        guard let base = memory.baseAddress else { preconditionFailure("allocate gave no memory") }
        return try body(base)
    }

    /// Where two byte arrays first differ (a length counts), rather than
    /// printing a mismatch of 300,000 bytes.
    private func firstDifference(_ read: [UInt8], _ expected: [UInt8]) -> Int? {
        read.indices.first { $0 >= expected.count || read[$0] != expected[$0] }
            ?? (read.count < expected.count ? read.count : nil)
    }

    @Test func distancesOneToSixtyThreeModuloAPageAreSlow() {
        withPageAlignedMemory(0) { base in
            for distance in [0, 64, 65, 2048, 4032, 4095, 4096, 8192] {
                #expect(!FileReader.copiesSlowly(to: base + distance, fromFileOffset: 0), "distance \(distance)")
            }
            for distance in [1, 4, 16, 31, 32, 63, 4096 + 4] {
                #expect(FileReader.copiesSlowly(to: base + distance, fromFileOffset: 0), "distance \(distance)")
            }
            // Counted from the file offset, not from the page.
            #expect(FileReader.copiesSlowly(to: base + 4, fromFileOffset: 4096 * 3))
            #expect(FileReader.copiesSlowly(to: base + 100, fromFileOffset: 96))
            #expect(!FileReader.copiesSlowly(to: base + 96, fromFileOffset: 96))
            #expect(!FileReader.copiesSlowly(to: base, fromFileOffset: 132))
        }
    }

    @Test(arguments: [1, 4, 31, 63])
    func aSequentialReadAtASlowDistanceGivesTheFilesBytes(distance: Int) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Larger than the bounce's 64 KiB piece, and not a multiple of it.
        let (url, bytes) = try patternedFile(300_001, in: directory)
        let reader = try FileReader(FileLocation(url), expectedLength: Int64(bytes.count))
        var read: [UInt8] = []
        try withPageAlignedMemory(bytes.count) { base in
            // First 1,000 bytes at an ordinary distance, then the rest at a slow one.
            let first = try reader.read(into: UnsafeMutableRawBufferPointer(start: base, count: 1000))
            read += UnsafeRawBufferPointer(start: base, count: first)
            let destination = base + 1000 + distance
            #expect(FileReader.copiesSlowly(to: destination, fromFileOffset: reader.bytesRead))
            let rest = try reader.read(into: UnsafeMutableRawBufferPointer(start: destination, count: bytes.count))
            read += UnsafeRawBufferPointer(start: destination, count: rest)
        }
        #expect(read.count == bytes.count)
        #expect(firstDifference(read, bytes) == nil)
        #expect(reader.remaining == 0)
    }

    @Test func aPositionedReadAtASlowDistanceGivesTheFilesBytes() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, bytes) = try patternedFile(200_000, in: directory)
        let reader = try FileReader(FileLocation(url), expectedLength: Int64(bytes.count))
        let offset = 12_345
        let count = 150_000
        let read = try withPageAlignedMemory(count) { base in
            let destination = base + (offset % 4096) + 16
            #expect(FileReader.copiesSlowly(to: destination, fromFileOffset: Int64(offset)))
            let filled = try reader.read(into: UnsafeMutableRawBufferPointer(start: destination, count: count), at: Int64(offset))
            return Array(UnsafeRawBufferPointer(start: destination, count: filled))
        }
        #expect(read.count == count)
        #expect(firstDifference(read, Array(bytes[offset..<(offset + count)])) == nil)
        #expect(reader.bytesRead == 0, "a positioned read leaves the reader where it was")
    }

    @Test func aFileThatShrinksIsStillCaughtThroughTheBounce() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, bytes) = try patternedFile(100_000, in: directory)
        let reader = try FileReader(FileLocation(url), expectedLength: Int64(bytes.count))
        try Data(bytes.prefix(70_000)).write(to: url)
        withPageAlignedMemory(bytes.count) { base in
            let error = #expect(throws: RequestBodyError.self) {
                try reader.read(into: UnsafeMutableRawBufferPointer(start: base + 8, count: bytes.count))
            }
            #expect(error?.code == .fileChangedSize)
        }
    }

    @Test func aReadEndsOnAPageOfTheFileOnlyWhenTheFileGoesOn() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, bytes) = try patternedFile(20_000, in: directory)
        let reader = try FileReader(FileLocation(url), expectedLength: Int64(bytes.count))
        #expect(reader.lengthEndingOnAPage(within: 10_000) == 8192)
        #expect(reader.lengthEndingOnAPage(within: 4096) == 4096)
        #expect(reader.lengthEndingOnAPage(within: 4000) == 4000, "no page boundary within it")
        #expect(reader.lengthEndingOnAPage(within: 20_000) == 20_000, "the file ends within it")
        #expect(reader.lengthEndingOnAPage(within: 65_536) == 65_536)
        try reader.skip(132)
        #expect(reader.lengthEndingOnAPage(within: 10_000) == 8192 - 132)
        #expect(reader.lengthEndingOnAPage(within: 3000) == 3000)
    }

    @Test func aFilePartAfterItsHeaderIsReadInPagesOfTheFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (url, bytes) = try patternedFile(300_000, in: directory)
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(at: url, name: "file", contentType: .octetStream)
        let body = try RequestBody.multipart(form)
        let header = Array("--\(form.boundary.value)\r\nContent-Disposition: form-data; name=\"file\"; filename=\"patterned.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n".utf8)

        var sizes: [Int] = []
        var collected: [UInt8] = []
        for try await chunk in body.chunks(maximumChunkSize: 65_536) {
            sizes.append(chunk.count)
            collected += chunk
        }
        // The first chunk holds the header and the file up to its last page
        // within the chunk; every later chunk then starts on a page of the file.
        #expect(sizes.first == header.count + 61_440)
        var fileOffset = sizes[0] - header.count
        for size in sizes.dropFirst().dropLast() {
            #expect(fileOffset % 4096 == 0, "a chunk starts at file offset \(fileOffset)")
            fileOffset += size
        }
        #expect(Array(collected.prefix(header.count)) == header)
        let parsed = try parseWithMultipartKit(collected, boundary: form.boundary.value)
        #expect(parsed.count == 1)
        #expect(firstDifference(parsed.first?.body ?? [], bytes) == nil)
        #expect(Int64(collected.count) == body.length)
    }
}
