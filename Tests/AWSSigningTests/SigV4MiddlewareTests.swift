import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderTesting
import Testing

/// What `SigV4Middleware` does with each kind of request, seen where it hands
/// the request on: a retry signed afresh, a given payload hash used as it is,
/// bodies hashed or streamed, and bad bodies refused with a clear error.
@Suite struct SigV4MiddlewareTests {
    static let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret"), region: "us-east-1")
    static let start = Date(timeIntervalSince1970: 1_700_000_000)

    static func request(_ method: HTTPRequest.Method = .put, body: RequestBody?, fields: HTTPFields = [:]) throws -> PreparedRequest {
        let request = HTTPRequestBuilder(method, "https://bucket.s3.amazonaws.com/key").headers(fields)
        return try (body.map { request.body($0) } ?? request).build()
    }

    static func stream(_ bytes: [UInt8], length: Int64?) -> RequestBody {
        RequestBody.stream(AsyncStream { continuation in
            continuation.yield(bytes)
            continuation.finish()
        }, length: length)
    }

    /// The request the middleware hands on, and its body read whole in pieces of `pieceSize`.
    static func handedOn(_ request: PreparedRequest, payload: SigV4PayloadSigning = .hashed, pieceSize: Int = 1 << 20) async throws -> (PreparedRequest, [UInt8]) {
        let middleware = SigV4Middleware(signer: signer, payload: payload, now: { start })
        let seen = LockedBox<(PreparedRequest, [UInt8])?>(nil)
        _ = try await middleware.handle(request) { signed in
            var bytes: [UInt8] = []
            if let body = signed.body {
                for try await chunk in body.chunks(maximumChunkSize: pieceSize) { bytes += chunk }
            }
            seen.value = (signed, bytes)
            return StreamedResponse(Response(head: HTTPResponse(status: .ok), body: Data()))
        }
        return try #require(seen.value)
    }

    @Test func eachRetryIsSignedAgainAtItsOwnTime() async throws {
        let stub = StubTransport([.status(.serviceUnavailable), .status(.ok)])
        let clock = LockedBox(Self.start)
        let sigV4 = SigV4Middleware(signer: Self.signer, now: {
            defer { clock.value += 90 }
            return clock.value
        })
        let client = RequestClient(transport: stub, middleware: [RetryMiddleware(sleep: { _ in }), sigV4])
        let request = try Self.request(body: .bytes(Array("retried".utf8)))
        _ = try await client.send(request)

        let attempts = stub.receivedRequests
        #expect(attempts.count == 2)
        for (index, attempt) in attempts.enumerated() {
            let date = Self.start.addingTimeInterval(Double(index) * 90)
            let expected = try Self.signer.signingSteps(for: request.head, payloadHash: PayloadDigest.sha256(of: Array("retried".utf8)).hex, date: date)
            #expect(attempt.head.headerFields[.xAmzDate] == SigV4Signer.amzDate(date))
            #expect(attempt.head.headerFields[.authorization] == expected.authorization)
        }
    }

    @Test func aGivenPayloadHashIsSignedAndTheBodyNotRead() async throws {
        let bytes = Array("part bytes".utf8)
        let digest = PayloadDigest.sha256(of: bytes)
        let request = try Self.request(body: Self.stream(bytes, length: Int64(bytes.count)), fields: [.xAmzContentSHA256: digest.hex])
        let (signed, sent) = try await Self.handedOn(request)
        // A stream reads once: had the middleware hashed it, reading it here would fail.
        #expect(sent == bytes)
        #expect(signed.head.headerFields[.xAmzContentSHA256] == digest.hex)
        let expected = try Self.signer.signingSteps(for: request.head, payloadHash: digest.hex, date: Self.start)
        #expect(signed.head.headerFields[.authorization] == expected.authorization)
    }

    @Test func hashedSignsTheBodysDigestAndNoBodyTheEmptyOne() async throws {
        let bytes = Array(repeating: UInt8(9), count: 3 * 1024 * 1024 + 5)
        let (signed, sent) = try await Self.handedOn(try Self.request(body: .bytes(bytes)))
        #expect(signed.head.headerFields[.xAmzContentSHA256] == PayloadDigest.sha256(of: bytes).hex)
        #expect(sent == bytes)
        let (empty, _) = try await Self.handedOn(try Self.request(.get, body: nil))
        #expect(empty.head.headerFields[.xAmzContentSHA256] == SigV4Signer.emptyPayloadHash)
        let (unsigned, _) = try await Self.handedOn(try Self.request(body: .bytes(bytes)), payload: .unsigned)
        #expect(unsigned.head.headerFields[.xAmzContentSHA256] == "UNSIGNED-PAYLOAD")
    }

    @Test func aBodyReadOnceIsStreamedWhenHashedIsAsked() async throws {
        let bytes = Array(repeating: UInt8(ascii: "z"), count: 70_000)
        let (signed, sent) = try await Self.handedOn(try Self.request(body: Self.stream(bytes, length: 70_000)))
        #expect(signed.head.headerFields[.xAmzContentSHA256] == "STREAMING-AWS4-HMAC-SHA256-PAYLOAD")
        #expect(signed.head.headerFields[.contentEncoding] == "aws-chunked")
        #expect(signed.head.headerFields[.xAmzDecodedContentLength] == "70000")
        #expect(signed.head.headerFields[.contentLength] == String(sent.count))
        #expect(String(decoding: sent.prefix(6), as: UTF8.self) == "10000;", "64 KiB chunks by default")
    }

    @Test func aRequestThatSaysItStreamsIsStreamed() async throws {
        let bytes = Array(repeating: UInt8(1), count: 20_000)
        let request = try Self.request(body: .bytes(bytes), fields: [.xAmzContentSHA256: "STREAMING-AWS4-HMAC-SHA256-PAYLOAD"])
        let (signed, sent) = try await Self.handedOn(request, payload: .streaming(chunkSize: 8192))
        #expect(signed.head.headerFields[.contentEncoding] == "aws-chunked")
        #expect(String(decoding: sent.prefix(5), as: UTF8.self) == "2000;", "the middleware's chunk size")
        let (byDefault, _) = try await Self.handedOn(request, payload: .unsigned)
        #expect(byDefault.head.headerFields[.xAmzDecodedContentLength] == "20000")
    }

    @Test func theChunkedBodyIsTheSameReadInAnyPieceSize() async throws {
        let bytes = (0..<50_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let request = try Self.request(body: .bytes(bytes), fields: [.contentEncoding: "gzip"])
        let (signed, whole) = try await Self.handedOn(request, payload: .streaming(chunkSize: 8192))
        #expect(signed.head.headerFields[.contentEncoding] == "aws-chunked,gzip", "aws-chunked goes first, the body's own encoding after")
        for pieceSize in [1, 7, 100, 8192 + 86, 1 << 20] {
            let (_, pieces) = try await Self.handedOn(request, payload: .streaming(chunkSize: 8192), pieceSize: pieceSize)
            #expect(pieces == whole, "pieces of \(pieceSize)")
        }
        #expect(whole.count == Int(signed.body?.length ?? -1))
        // Six full 8 KiB chunks ("2000"), one of 848 bytes ("350"), the empty one ("0"),
        // each with 85 bytes of framing around its size and data.
        let framing = 6 * (4 + 85) + (3 + 85) + (1 + 85)
        #expect(whole.count == 50_000 + framing)
    }

    @Test func aStreamWithoutALengthCannotBeStreamedSigned() async throws {
        let request = try Self.request(body: Self.stream([1, 2, 3], length: nil))
        let error = await #expect(throws: AWSSigningError.self) { try await Self.handedOn(request) }
        #expect(error?.code == .unknownBodyLength)
        #expect(error?.description.contains("x-amz-decoded-content-length") == true)
    }

    @Test func aBodyShorterThanItsLengthFailsTheUpload() async throws {
        let short = RequestBody(contentType: nil, length: 10_000, isReplayable: true) { ShortSource(left: 4000) }
        let request = try Self.request(body: short)
        let error = await #expect(throws: AWSSigningError.self) { try await Self.handedOn(request, payload: .streaming()) }
        #expect(error?.code == .bodyLengthMismatch)
        #expect(error?.description == "The body declared 10000 bytes but produced 4000; the aws-chunked upload was cut short")
    }

    /// A source that ends before the length its body declares.
    struct ShortSource: ChunkSource {
        var left: Int
        mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
            guard left > 0 else { return nil }
            let count = min(left, maximumLength)
            left -= count
            return BodyChunk(Storage(capacity: count) { buffer in
                buffer.initializeMemory(as: UInt8.self, repeating: 1)
                return count
            })
        }
    }
}

/// A value shared with a `@Sendable` closure in a test.
final class LockedBox<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var stored: Value
    init(_ value: Value) { stored = value }

    /// `@unchecked Sendable`: every access holds the lock.
    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }
}
