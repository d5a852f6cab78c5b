import HTTPBody
import NIOCore
import NIOSSL
import RequestBuilder
@testable import RequestBuilderAsyncHTTPClient
import Testing

/// What an HTTPS upload holds for each connection beyond its chunks (issue
/// #43: a 1 GiB S3 upload over TLS peaked at 68-72 MiB of RSS, 30-33 after
/// these, Benchmarks/README.md).
@Suite struct TLSMemoryTests {
    /// NIOSSL keeps a closed connection's TLS handler, with its last record
    /// buffer, until the wait for the server's close_notify ends, even when
    /// the server has closed the socket without one, as moto and most HTTP
    /// servers do: with NIOSSL's 5 s default, an upload whose store closes
    /// every part's connection held about 36 of them.
    @Test(arguments: [TLSSettings(), TLSSettings(verifiesServer: false)])
    func aClosedConnectionWaitsAtMost100msForCloseNotify(_ settings: TLSSettings) throws {
        let configuration = try settings.makeTLSConfiguration().configuration
        #expect(configuration.shutdownTimeout <= .milliseconds(100))
    }

    /// A chunk sealed in TLS records, at most 29 bytes more per 16 KiB
    /// record, still fits the power of two NIO rounds its buffer up to:
    /// 512 KiB, not 1 MiB. Read offsets stay multiples of the alignment.
    @Test(arguments: [64 * 1024, 512 * 1024, 1 << 20])
    func aSealedChunkFitsItsChunkSize(_ chunkSize: Int) {
        let plain = OutgoingBuffer.readLength(forChunkSize: chunkSize)
        let sealed = OutgoingBuffer.readLength(forChunkSize: chunkSize, inTLSRecords: true)
        let records = (sealed + 16383) / 16384
        #expect(sealed + records * 29 <= chunkSize)
        #expect(sealed % FileReader.bufferAlignment == 0)
        #expect(plain + records * 29 > chunkSize, "without the room, the sealed chunk would not fit")
    }
}
