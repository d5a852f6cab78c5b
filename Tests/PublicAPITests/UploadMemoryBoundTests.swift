// Tests in this target use the products as a user's package does: plain
// imports (never `@testable`), only what the README and the doc comments show.

import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import NIOCore
import NIOPosix
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import Synchronization
import Testing
import TestSupport

/// An upload through AsyncHTTPClientTransport keeps at most about two chunks
/// in memory whatever client it is given (issue #12, item 2): the bytes it
/// has handed to the connection, which its progress reports, stop growing
/// while the client's event loops cannot take them.
@Suite("Uploads through AsyncHTTPClientTransport hold about two chunks, whatever the client")
struct UploadMemoryBoundTests {
    /// The clients a user may give the transport. (The shared client, on
    /// NIO's singleton group, takes the same path with two loops here; it is
    /// not tested this way because blocking the singleton group's loops
    /// stalls every other suite's servers and clients in this process.)
    enum Client: String, CaseIterable, Sendable, CustomTestStringConvertible {
        /// A client of the user's own on a group of three event loops.
        case ownThreeLoopGroup

        var testDescription: String { rawValue }
    }

    /// Bytes handed to the connection so far, as the progress closure reports them.
    final class Handed: Sendable {
        private let bytes = Mutex<Int64>(0)
        func note(_ progress: UploadProgress) { bytes.withLock { $0 = progress.bytesSent } }
        var value: Int64 { bytes.withLock { $0 } }
    }

    static let bodySize = 128 * 1024 * 1024

    @Test("While the client's event loops are busy, no more than two chunks go to the connection", arguments: Client.allCases)
    func handsOverAtMostTwoChunksWhileTheLoopsAreBusy(client choice: Client) async throws {
        let server = try await TestHTTPServer.start(recordLimit: 0)
        let directory = FileManager.default.temporaryDirectory.appending(path: "upload-bound-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // A sparse file: read at memory speed, far faster than any socket.
        let file = directory.appending(path: "payload")
        #expect(FileManager.default.createFile(atPath: file.path, contents: nil))
        let handle = try FileHandle(forWritingTo: file)
        try handle.truncate(atOffset: UInt64(Self.bodySize))
        try handle.close()

        let ownGroup = choice == .ownThreeLoopGroup ? MultiThreadedEventLoopGroup(numberOfThreads: 3) : nil
        let transport = ownGroup.map { group in
            AsyncHTTPClientTransport(client: HTTPClient(eventLoopGroup: group, configuration: AsyncHTTPClientTransport.configuration()))
        } ?? AsyncHTTPClientTransport()
        let request = try HTTPRequestBuilder(.post, server.url(path: "/upload"))
            .multipart { form in try form.appendFile(at: file, name: "file", contentType: .octetStream) }
            .build()
        let handed = Handed()
        let upload = Task {
            try await RequestClient(transport: transport).send(request) { handed.note($0) }
        }

        // Once the body is flowing, every loop of the client's group is made
        // busy, as a loop writing a large chunk or serving other connections is.
        // The wait ends on that event; its budget only stops a test whose
        // upload never starts, and is generous because in a full run on two
        // cores other suites can hold both cores for many seconds (10 s was
        // not enough there, and said nothing about the transport).
        let flowing = ContinuousClock.now + TestTime.liveness
        while handed.value == 0, ContinuousClock.now < flowing {
            try await Task.sleep(for: .milliseconds(5))
        }
        let loops = Array(transport.client.eventLoopGroup.makeIterator())
        let gate = DispatchSemaphore(value: 0)
        let busyLoops = Mutex(0)
        for loop in loops {
            loop.execute {
                busyLoops.withLock { $0 += 1 }
                gate.wait()
            }
        }
        while busyLoops.withLock({ $0 }) < loops.count {
            try await Task.sleep(for: .milliseconds(1))
        }
        // What goes to the connection from now on, while no loop can take it,
        // is what the transport holds beyond the socket. A slow machine can
        // only hand over less in this window, never more.
        let before = handed.value
        try await Task.sleep(for: .milliseconds(250))
        let whileBusy = handed.value - before
        for _ in loops { gate.signal() }

        let response = try await upload.value
        if let ownGroup {
            try await transport.client.shutdown()  // the shared client is never shut down
            try await ownGroup.shutdownGracefully()
        }
        try await server.stop()

        #expect(before > 0, "the body was flowing before the loops were made busy")
        #expect(before < Int64(Self.bodySize), "the body was not all handed over before the loops were made busy")
        #expect(whileBusy <= Int64(2 * transport.chunkSize), "\(whileBusy) bytes went to the connection while its loops were busy")
        #expect(response.status.code == 200)
        #expect(handed.value > Int64(Self.bodySize))
    }
}
