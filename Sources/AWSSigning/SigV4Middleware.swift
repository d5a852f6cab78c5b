public import Foundation
import HTTPBody
import HTTPTypes
public import RequestBuilder

/// Signs each request a `RequestClient` sends with AWS Signature Version 4
/// (``SigV4Signer``), hashing or streaming its body as ``SigV4PayloadSigning`` says.
///
/// Every attempt is signed afresh, with the time it is sent: put a
/// `RetryMiddleware` before this one, so each retry passes through it again
/// (a signature older than 15 minutes is refused, and a streamed body's chunk
/// signatures chain from the request's).
///
/// A request that already carries `x-amz-content-sha256` is signed with that
/// value and its body is not read: an S3 part upload that read its part
/// once for its checksum too signs with the digest it computed then.
///
/// ```swift
/// let signer = SigV4Signer(credentials: try .environment(), region: "eu-west-1")
/// let client = RequestClient(transport: transport, middleware: [.retry(), .sigV4(signer)])
/// ```
public struct SigV4Middleware: RequestMiddleware {
    /// The signer: credentials, region and service.
    public let signer: SigV4Signer
    /// How the body is signed.
    public let payload: SigV4PayloadSigning
    private let now: @Sendable () -> Date

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - signer: Credentials, region and service to sign with.
    ///   - payload: How the body is signed; ``SigV4PayloadSigning/hashed`` by default.
    ///   - now: The signing time of each attempt; inject a fixed one in tests.
    public init(signer: SigV4Signer, payload: SigV4PayloadSigning = .hashed, now: @escaping @Sendable () -> Date = { Date() }) {
        self.signer = signer
        self.payload = payload
        self.now = now
    }

    /// Signs the request and passes it on.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        try await next(try await signed(request))
    }

    /// `request` signed at `now()`, its body hashed, or wrapped in
    /// aws-chunked: the one place the package decides a payload hash.
    package func signed(_ request: PreparedRequest) async throws -> PreparedRequest {
        let date = now()
        let given = request.head.headerFields[.xAmzContentSHA256]
        if let given, given != AWSChunkedEncoding.payloadHash {
            return try request.updating { try signer.sign(&$0, payloadHash: given, date: date) }
        }
        guard let body = request.body else {
            return try request.updating { try signer.sign(&$0, payloadHash: SigV4Signer.emptyPayloadHash, date: date) }
        }
        // A request that says it streams is streamed, in this middleware's chunk size if it has one.
        var mode = payload.mode
        if given != nil, !mode.isStreaming { mode = SigV4PayloadSigning.streaming().mode }
        switch mode {
        case .unsigned:
            return try request.updating { try signer.sign(&$0, payloadHash: SigV4Signer.unsignedPayload, date: date) }
        case .hashed where body.isReplayable:
            let digest = try await PayloadDigest.sha256(of: body)
            return try request.updating { try signer.sign(&$0, payloadHash: digest.hex, date: date) }
        case .hashed:
            return try streamed(request, body: body, chunkSize: AWSChunkedEncoding.defaultChunkSize, date: date)
        case .streaming(let chunkSize):
            return try streamed(request, body: body, chunkSize: chunkSize, date: date)
        }
    }

    /// `request` with its body in aws-chunked encoding, signed with
    /// `STREAMING-AWS4-HMAC-SHA256-PAYLOAD`: the head declares the decoded
    /// and encoded lengths, and the chunk signatures chain from its signature.
    ///
    /// The head is signed with the `Content-Length` the encoded body will
    /// have, before that body exists (its chunk signatures chain from the
    /// head's); ``PreparedRequest/updating(body:_:)`` then checks that the
    /// length signed is the one the encoded body implies.
    private func streamed(_ request: PreparedRequest, body: RequestBody, chunkSize: Int, date: Date) throws -> PreparedRequest {
        guard let length = body.length else { throw AWSSigningError.unknownBodyLength() }
        var head = request.head
        let encodings = head.headerFields[.contentEncoding]
        head.headerFields[.contentEncoding] = encodings.map { "aws-chunked,\($0)" } ?? "aws-chunked"
        head.headerFields[.xAmzDecodedContentLength] = String(length)
        head.headerFields[.contentLength] = String(AWSChunkedEncoding.encodedLength(decodedLength: length, chunkSize: chunkSize))
        let amzDate = SigV4Signer.amzDate(date)
        let seed = try signer.signReturningSeed(&head, payloadHash: AWSChunkedEncoding.payloadHash, date: date)
        let encoding = AWSChunkedEncoding(
            chunkSize: chunkSize, seedSignature: seed.signature, key: seed.key, amzDate: amzDate, scope: signer.scope(amzDate: amzDate)
        )
        let signedHead = head
        return try request.updating(body: encoding.encode(body, decodedLength: length)) { $0 = signedHead }
    }
}

extension RequestMiddleware where Self == SigV4Middleware {
    /// Signs each request with AWS Signature Version 4; see ``SigV4Middleware``.
    ///
    /// - Parameters:
    ///   - signer: Credentials, region and service to sign with.
    ///   - payload: How the body is signed; ``SigV4PayloadSigning/hashed`` by default.
    public static func sigV4(_ signer: SigV4Signer, payload: SigV4PayloadSigning = .hashed) -> SigV4Middleware {
        SigV4Middleware(signer: signer, payload: payload)
    }
}
