import Foundation
import HTTPBody
import NIOCore
import NIOPosix
import RequestBuilder
@testable import RequestBuilderAsyncHTTPClient
import Testing

/// The AsyncHTTPClient transport reads a chunk ahead of the connection, never
/// more: the next chunk waits until the event loops have taken the last one.
@Suite struct BodyBackPressureTests {
    /// Any loop of the group may carry the connection, so a busy one holds the
    /// chunks back whichever it is.
    @Test(arguments: [1, 3])
    func holdsTheNextChunkWhileAnEventLoopIsBusy(loopCount: Int) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: loopCount)
        let loops = Array(group.makeIterator())
        let loop = loops[loopCount / 2]
        let chunks = ByteBufferChunks(
            body: .bytes(Array(repeating: 7, count: 4096)), chunkSize: 1024, eventLoops: loops, progress: { _ in }
        )
        // The loop is busy (as if writing a large chunk) until `gate` opens.
        let gate = DispatchSemaphore(value: 0)
        let busy = loop.submit { gate.wait() }
        let handedOver = LockedBox(0)
        let reader = Task {
            var iterator = chunks.makeAsyncIterator()
            while try await iterator.next() != nil {
                handedOver.mutate { $0 += 1 }
            }
        }
        try await Task.sleep(for: .milliseconds(300))
        let whileBusy = handedOver.value
        gate.signal()
        try await busy.get()
        try await reader.value
        try await group.shutdownGracefully()

        #expect(whileBusy == 1, "only the first chunk may go out before the loop takes it")
        #expect(handedOver.value == 4)
    }

    /// Each chunk's buffer takes the chunk size, its alignment padding
    /// included: NIO rounds a capacity up to a power of two, so a full chunk
    /// and the padding took twice the memory the chunk size promises.
    @Test func readsFilesStraightIntoByteBuffersWithProgress() async throws {
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, bytes) = try TransportIntegrationTests.makeFile(size: 3 * 1024 * 1024 + 5, in: directory)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let reports = LockedBox<[Int64]>([])
        let chunks = ByteBufferChunks(
            body: try .file(at: file), chunkSize: 1 << 20, eventLoops: [group.next()],
            progress: { report in reports.mutate { $0.append(report.bytesSent) } }
        )
        var received: [UInt8] = []
        var capacities: Set<Int> = []
        for try await buffer in chunks {
            received += buffer.readableBytesView
            capacities.insert(buffer.capacity)
        }
        try await group.shutdownGracefully()
        #expect(received == bytes)
        #expect(capacities.allSatisfy { $0 <= 1 << 20 }, "\(capacities)")
        let length = Int64(OutgoingBuffer.readLength(forChunkSize: 1 << 20))
        #expect(reports.value == [length, 2 * length, 3 * length, Int64(received.count)])
    }

    @Test func writesMultipartFormsIntoByteBuffersAsTheyEncode() async throws {
        let directory = try TransportIntegrationTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let (file, _) = try TransportIntegrationTests.makeFile(size: 700_001, in: directory)
        var form = MultipartFormData(boundary: try .constant("back-pressure-boundary"))
        form.append("a field", name: "title")
        try form.appendFile(at: file, name: "file")
        form.append([UInt8](repeating: 0xFF, count: 300_000), name: "blob", filename: "blob.bin")
        let body = try RequestBody.multipart(form)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let chunks = ByteBufferChunks(body: body, chunkSize: 64 * 1024, eventLoops: [group.next()], progress: { _ in })
        var received: [UInt8] = []
        for try await buffer in chunks {
            #expect(buffer.readableBytes <= 64 * 1024)
            received += buffer.readableBytesView
        }
        try await group.shutdownGracefully()
        #expect(received == (try await body.collect()))
    }

    /// A multipart body ends a chunk wherever its bytes turn from worth
    /// compressing to not (a PNG part among text parts); the transport
    /// gathers those short chunks into full ones, so a form of many small
    /// parts costs a few event-loop hops, not one or two per part.
    @Test func gathersShortChunksIntoFullOnes() async throws {
        var form = MultipartFormData(boundary: try .constant("gathering-boundary"))
        for index in 0..<300 {
            form.append("note \(index)", name: "note\(index)")
            form.append([UInt8](repeating: UInt8(index % 251), count: 700), name: "image\(index)", filename: "i\(index).png", contentType: MediaType(type: "image", subtype: "png"))
        }
        let body = try RequestBody.multipart(form)
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let chunks = ByteBufferChunks(body: body, chunkSize: 64 * 1024, eventLoops: [group.next()], progress: { _ in })
        var sizes: [Int] = []
        var received: [UInt8] = []
        for try await buffer in chunks {
            sizes.append(buffer.readableBytes)
            received += buffer.readableBytesView
        }
        try await group.shutdownGracefully()
        #expect(received == (try await body.collect()))
        let length = OutgoingBuffer.readLength(forChunkSize: 64 * 1024)
        #expect(sizes.dropLast().allSatisfy { $0 == length }, "\(sizes)")
        #expect(sizes.count == (received.count + length - 1) / length)
    }
}
