import Foundation
import HTTPBody
import Testing

/// Rows of docs/bad-input.md that no other test covered.
@Suite struct BadInputCatalogueTests {
    @Test func collectingBodyOfKnownLengthPastTheLimitFailsBeforeReading() async throws {
        let error = await #expect(throws: RequestBodyError.self) {
            try await RequestBody.bytes([UInt8](repeating: 1, count: 11)).collect(upTo: 10)
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.description == "The body is larger than the 10-byte limit for reading it into memory")
    }

    @Test func collectingStreamPastTheLimitFailsWhenItGetsThere() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            for _ in 0..<4 { continuation.yield([1, 2, 3, 4]) }
            continuation.finish()
        }
        let error = await #expect(throws: RequestBodyError.self) {
            try await RequestBody.stream(stream).collect(upTo: 10)
        }
        #expect(error?.code == .tooLarge)
    }
}
