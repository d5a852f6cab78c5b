import Foundation
import HTTPBody
import NIOCore
import NIOPosix
@testable import RequestBuilderAsyncHTTPClient
import Testing

/// The transport reads each chunk into the memory of the one handed over
/// two chunks before, once the connection has dropped it (issue #29: a fresh
/// 512 KiB buffer per chunk cost 21,000-36,000 page faults in a 1 GiB S3
/// upload). A buffer the connection still holds must never be written into.
@Suite struct SendBufferRecyclingTests {
    /// A connection that holds every chunk it was given (a socket that never
    /// drains): each chunk keeps its bytes, however many were read after it.
    @Test func chunksTheConnectionStillHoldsKeepTheirBytes() async throws {
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, bytes) = try TransportIntegrationTests.makeFile(size: 3 * 512 * 1024 + 777, in: directory)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let chunks = ByteBufferChunks(body: try .file(at: file), chunkSize: 512 * 1024, eventLoops: [group.next()], progress: { _ in })
        var held: [ByteBuffer] = []
        for try await buffer in chunks {
            held.append(buffer)
        }
        try await group.shutdownGracefully()
        #expect(held.count == 4)
        #expect(held.flatMap { Array($0.readableBytesView) } == bytes)
    }

    /// A buffer recycled while another reference to it lives (the
    /// connection still writing it) is left alone: the next chunk gets new
    /// memory, and the held bytes do not change.
    @Test func aBufferStillHeldIsNotReadInto() throws {
        let capacity = OutgoingBuffer.readLength(forChunkSize: 512 * 1024)
        let first = OutgoingBuffer(capacity: capacity) { $0.initializeMemory(as: UInt8.self, repeating: 1); return $0.count }.buffer
        let box = LockedValue<ByteBuffer?>(first)
        let second = OutgoingBuffer.$recycled.withValue(box) {
            OutgoingBuffer(capacity: capacity) { $0.initializeMemory(as: UInt8.self, repeating: 2); return $0.count }.buffer
        }
        #expect(box.withLock { $0 == nil }, "the recycled buffer is taken out of the box")
        #expect(first.readableBytesView.allSatisfy { $0 == 1 })
        #expect(first.readableBytes == capacity)
        #expect(second.readableBytesView.allSatisfy { $0 == 2 })
        #expect(second.readableBytes == capacity)
    }

    /// A recycled buffer referenced nowhere else is read into in place, its
    /// alignment padding worked out anew.
    @Test func aBufferNoLongerHeldIsReadIntoInPlace() throws {
        let capacity = OutgoingBuffer.readLength(forChunkSize: 512 * 1024)
        let first = OutgoingBuffer(capacity: capacity) { $0.initializeMemory(as: UInt8.self, repeating: 1); return $0.count }.buffer
        let address = first.withUnsafeReadableBytes { Int(bitPattern: $0.baseAddress) }
        let box = LockedValue<ByteBuffer?>(first)
        _ = consume first
        let second = OutgoingBuffer.$recycled.withValue(box) {
            OutgoingBuffer(capacity: capacity - 100) { $0.initializeMemory(as: UInt8.self, repeating: 2); return $0.count }.buffer
        }
        #expect(second.withUnsafeReadableBytes { Int(bitPattern: $0.baseAddress) } == address)
        #expect(address % FileReader.bufferAlignment == 0)
        #expect(second.readableBytes == capacity - 100)
        #expect(second.readableBytesView.allSatisfy { $0 == 2 })
    }
}
