import Foundation
import HTTPBody
import Testing

@Suite struct RawBodyTests {
    @Test func fileBodyTakesLengthFromFileSystemAndStreamsBytes() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "raw-body-\(UUID()).bin")
        let bytes = (0..<300_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        try Data(bytes).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }

        let body = try RequestBody.file(at: url)
        #expect(body.length == 300_000)
        #expect(body.isReplayable)
        var chunkSizes: [Int] = []
        var read: [UInt8] = []
        for try await chunk in body.chunks(maximumChunkSize: 100_000) {
            chunkSizes.append(chunk.count)
            read += chunk
        }
        #expect(chunkSizes == [100_000, 100_000, 100_000])
        #expect(read == bytes)
        #expect(try await body.collect() == bytes)  // replayable
    }

    @Test func missingFileIsNamedInError() throws {
        let error = #expect(throws: RequestBodyError.self) {
            try RequestBody.file(at: URL(filePath: "/nonexistent/photo.jpg"))
        }
        #expect(error?.code == .fileNotFound)
        #expect(error?.description.contains("/nonexistent/photo.jpg") == true)
    }

    @Test func directoryIsRejected() throws {
        let error = #expect(throws: RequestBodyError.self) {
            try RequestBody.file(at: FileManager.default.temporaryDirectory)
        }
        #expect(error?.code == .notARegularFile)
    }

    @Test func fileThatGrowsFailsTheRead() async throws {
        let url = FileManager.default.temporaryDirectory.appending(path: "grow-\(UUID()).txt")
        try Data("1234".utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let body = try RequestBody.file(at: url)
        try Data("123456789".utf8).write(to: url)
        let error = await #expect(throws: RequestBodyError.self) { try await body.collect() }
        #expect(error?.code == .fileChangedSize)
    }

    @Test func streamBodyCannotBeReadTwice() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield([1, 2, 3])
            continuation.finish()
        }
        let body = RequestBody.stream(stream)
        #expect(!body.isReplayable)
        #expect(try await body.collect() == [1, 2, 3])
        let error = await #expect(throws: RequestBodyError.self) { try await body.collect() }
        #expect(error?.code == .alreadyConsumed)
    }

    @Test func streamShorterThanDeclaredLengthFails() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield([1, 2])
            continuation.finish()
        }
        let error = await #expect(throws: RequestBodyError.self) {
            try await RequestBody.stream(stream, length: 5).collect()
        }
        #expect(error?.code == .streamLengthMismatch)
    }
}
