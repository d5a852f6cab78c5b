public import AWSSigning
public import Foundation
public import HTTPBody
public import HTTPTypes
public import RequestBuilder

/// Sends signed requests to an S3 service: single `PUT`s, and the steps of
/// ``S3MultipartUpload``.
///
/// ```swift
/// let s3 = S3Client(
///     endpoint: .aws(region: "eu-west-1"),
///     credentials: try .environment(),
///     transport: AsyncHTTPClientTransport()
/// )
/// let photo = try S3Location("s3://holiday-photos/beach.jpg")
/// try await s3.putObject(.file(at: URL(filePath: "beach.jpg")), at: photo)
/// ```
///
/// Every request is signed with AWS Signature Version 4 as it is sent, so a
/// retried attempt carries a fresh date. Each request is retried on its
/// own (a failed part of a multipart upload, not the whole upload) by
/// `retry`, which runs before the signer.
public struct S3Client: Sendable {
    /// Where the service is and how buckets are addressed.
    public let endpoint: S3Endpoint
    /// Signs every request.
    public let signer: SigV4Signer
    /// The client the requests go through: your middleware, the retry, then the signer.
    public let client: RequestClient
    /// The retry policy of each request; also paces the retries of a
    /// `CompleteMultipartUpload` that S3 answers with a `200` holding an error.
    public let retry: RetryMiddleware
    /// The checksum the store verifies and keeps for each `PUT`, and for
    /// each part of the multipart uploads this client begins (a resumed
    /// upload keeps the one it began with). CRC-32 by default, as the AWS SDKs send.
    public var checksumAlgorithm: S3ChecksumAlgorithm = .crc32
    /// When the bytes of each `PUT` and part are signed: by default not over
    /// HTTPS, where TLS protects them (their CRC-32 in an `aws-chunked`
    /// trailer, or in a header for a store that refuses trailers; checked by
    /// the store either way), and always over plain HTTP. Set
    /// ``S3PayloadSigning/always`` for a store that refuses unsigned payloads.
    public var payloadSigning: S3PayloadSigning = .unsignedOverHTTPS
    /// How long each request may take, the whole exchange (see
    /// `PreparedRequest.timeout`); `nil`, the default, for no limit. Set on
    /// every request this client builds or sends that has none of its own,
    /// the steps of an ``S3MultipartUpload`` included.
    public var timeout: Duration?
    /// At most this many requests in flight at once, across every upload
    /// of this client and of the copies made of it once this is set; `nil`,
    /// the default, for no limit but each ``S3MultipartUpload``'s own
    /// `concurrency`. A request that carries a file's bytes (a
    /// ``putObject(_:at:headerFields:progress:)``, a part) holds its place
    /// from the first read of its bytes, for their checksums, to its response.
    ///
    /// Each such request holds its buffers (a chunk being hashed, the chunks
    /// the connection is writing) only while it is in flight, so this bounds
    /// the memory and the connections of many uploads at once: a directory
    /// of large files sent 4 at a time, each 4 parts at a time, is 16 parts
    /// in flight without it and 4 with it set to 4 (as boto3's transfer
    /// manager sends with its pool of `max_concurrency` threads).
    public var maximumConcurrentRequests: Int? {
        get { slots?.count }
        set { slots = newValue.map { TransferSlots(count: $0) } }
    }
    /// Shared by the copies of this client, so their requests count together.
    private var slots: TransferSlots?
    /// Set once a store refused a checksum trailer: this client and its
    /// copies send every later payload with the checksum in its header.
    let trailerRefused = LockedValue(false)
    /// ``client`` for a payload with its checksum in a trailer: its retry
    /// does not repeat a `501 Not Implemented`, which is how a store that
    /// does not know the form refuses it, so the header form follows at once.
    let trailerClient: RequestClient

    /// The largest error or listing body read into memory.
    static let maximumAnswerSize = 8 * 1024 * 1024

    /// Creates a client.
    ///
    /// - Parameters:
    ///   - endpoint: The service: ``S3Endpoint/aws(region:)`` or an S3-compatible store.
    ///   - credentials: The access key that signs the requests.
    ///   - transport: Sends each attempt.
    ///   - middleware: Run first, outermost first (logging, say).
    ///   - retry: Retries each request on its own; S3's operations are all
    ///     safe to repeat, so POSTs are retried too by default.
    public init(
        endpoint: S3Endpoint,
        credentials: AWSCredentials,
        transport: any HTTPTransport,
        middleware: [any RequestMiddleware] = [],
        retry: RetryMiddleware = RetryMiddleware(maximumAttempts: 5, retriesNonIdempotentRequests: true)
    ) {
        self.endpoint = endpoint
        self.signer = SigV4Signer(credentials: credentials, region: endpoint.region, service: "s3")
        self.retry = retry
        self.client = RequestClient(transport: transport, middleware: middleware + [retry, SigV4Middleware(signer: signer)])
        var trailerRetry = retry
        trailerRetry.retryableStatuses.remove(501)
        self.trailerClient = RequestClient(transport: transport, middleware: middleware + [trailerRetry, SigV4Middleware(signer: signer)])
    }

    /// A request builder for an object (or, with `key` nil, the bucket).
    ///
    /// - Throws: ``S3Error`` when the endpoint and names make no URL.
    public func request(_ method: HTTPRequest.Method, bucket: String, key: String?) throws(S3Error) -> HTTPRequestBuilder {
        let builder = HTTPRequestBuilder(method, try endpoint.url(bucket: bucket, key: key))
        return timeout.map { builder.timeout($0) } ?? builder
    }

    /// Uploads `body` as the object at `location` in one `PUT`.
    ///
    /// A replayable body of known length carries its ``checksumAlgorithm``
    /// checksum, which the store checks what it received against: unsigned
    /// (``S3PayloadSigning/unsignedOverHTTPS``), a CRC-32 is computed as the
    /// bytes are sent and goes in an `aws-chunked` trailer, the body read
    /// once; otherwise the body is read once beforehand for the checksum
    /// (`x-amz-checksum-crc32`) and, when ``payloadSigning`` signs it, its
    /// SHA-256, the signed payload hash. A stream is sent with `aws-chunked`
    /// signing instead. S3 takes up to
    /// 5 GiB in one `PUT`; use ``S3MultipartUpload`` past that (or past a
    /// few hundred megabytes, to send parts in parallel).
    ///
    /// - Parameters:
    ///   - body: The object's bytes; its content type becomes the object's
    ///     unless `headerFields` sets one.
    ///   - location: The bucket and key.
    ///   - headerFields: More fields for the `PUT` (`Cache-Control`, `x-amz-meta-*`, ...).
    ///   - progress: Bytes sent.
    /// - Returns: The store's response (its `ETag` names the stored bytes).
    /// - Throws: ``S3Error`` when the store refuses, `RequestError` when the
    ///   request cannot be sent.
    @discardableResult
    public func putObject(
        _ body: RequestBody,
        at location: S3Location,
        headerFields: HTTPFields = [:],
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Response {
        try await transfer {
            guard body.isReplayable, body.length != nil else {
                let request = try await putObjectRequest(body, at: location, headerFields: headerFields)
                return try await send(request, operation: "PutObject", location: location, progress: progress)
            }
            let put = try self.request(.put, bucket: location.bucket, key: location.key).headers(headerFields)
            return try await sendPayload(body, algorithm: checksumAlgorithm, operation: "PutObject", location: location, progress: progress) {
                try put.body($0).headers($1).build()
            }.response
        }
    }

    /// Whether the payloads this client sends are signed: ``payloadSigning``
    /// at the endpoint's scheme.
    var signsPayloads: Bool {
        payloadSigning.signs(overScheme: endpoint.url.scheme)
    }

    /// Runs `body`, which sends requests (or readies a file to be sent),
    /// in one of the places of ``maximumConcurrentRequests`` when it is
    /// set; the requests `body` sends take no other.
    package func transfer<Result>(_ body: () async throws -> Result) async throws -> Result {
        guard let slots else { return try await body() }
        return try await slots.withSlot(body)
    }

    /// The `PUT` that ``putObject(_:at:headerFields:progress:)`` sends first,
    /// before signing, when the body can be read twice: its body encoded with
    /// a CRC-32 trailer where that is how this client sends it (see
    /// ``S3PayloadSigning/unsignedOverHTTPS``), else with the body's checksum
    /// and payload hash (its SHA-256, or `UNSIGNED-PAYLOAD` as
    /// ``payloadSigning`` says; read once here).
    public func putObjectRequest(_ body: RequestBody, at location: S3Location, headerFields: HTTPFields = [:]) async throws -> PreparedRequest {
        var request = try self.request(.put, bucket: location.bucket, key: location.key).headers(headerFields).body(body)
        if sendsChecksumTrailer(of: body, algorithm: checksumAlgorithm), let length = body.length {
            let encoded = AWSChunkedTrailerEncoding.encode(body, decodedLength: length, recordingIn: .init())
            request = request.body(encoded).headers(Self.trailerFields(decodedLength: length))
        } else if body.isReplayable, body.length != nil {
            request = request.headers(try await PayloadChecksum(of: body, algorithm: checksumAlgorithm, signed: signsPayloads).headerFields)
        }
        return try request.build()
    }

    /// The request as it would be sent at `date`, signed by the same
    /// middleware that signs what this client sends (so the same payload
    /// hash): for `--dry-run`s and for handing a request to another program.
    /// The payload hash is the `x-amz-content-sha256` the request carries,
    /// else the body's SHA-256 when it can be read twice; a body read once
    /// is wrapped in aws-chunked, as it would be sent.
    public func signed(_ request: PreparedRequest, date: Date = Date()) async throws -> PreparedRequest {
        try await SigV4Middleware(signer: signer, now: { date }).signed(request)
    }

    /// Sends a request and returns its response when the status is 2xx and
    /// its body is not an `<Error>`.
    ///
    /// S3 may answer `200 OK` and then report an error in the body (it says
    /// so of `CompleteMultipartUpload` and the copies; botocore checks every
    /// operation whose answer is XML): that is a failure, tried again like a
    /// 5xx when transient (`InternalError`, `SlowDown`), paced and counted
    /// by ``retry``, and a refusal otherwise.
    ///
    /// - Throws: ``S3Error/Code/serviceError`` with the store's code and
    ///   message for any other status or an error in a 2xx
    ///   (``S3Error/Code/uploadNotFound`` for `NoSuchUpload`); `RequestError`
    ///   for failures to send.
    ///
    /// `client` is the request client the attempts go through: ``client``
    /// unless given (``trailerClient`` for the trailer form).
    func send(
        _ request: PreparedRequest,
        operation: String,
        location: S3Location,
        through client: RequestClient? = nil,
        progress: @escaping @Sendable (UploadProgress) -> Void = { _ in }
    ) async throws -> Response {
        try await transfer {
            try await sendNow(request, operation: operation, location: location, through: client ?? self.client, progress: progress)
        }
    }

    private func sendNow(
        _ request: PreparedRequest,
        operation: String,
        location: S3Location,
        through client: RequestClient,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> Response {
        let request = request.updating(acceptableStatus: .any).updating(timeout: request.timeout ?? timeout)
        let replayable = request.body?.isReplayable ?? true
        // An error inside a 2xx is not a status the retry middleware sees:
        // the same loop repeats it, paced and counted by the same policy.
        let response = try await retry.run({ attempt in
            try await client.send(attempt.bounding(request), maximumBodySize: Self.maximumAnswerSize, progress: progress)
        }, again: { response in
            guard replayable, response.status.kind == .successful,
                  let error = S3Error(refusing: operation, of: location, response: response), error.isTransient
            else { return nil }
            return RetryMiddleware.Repetition(reason: error.description)
        })
        if let error = S3Error(refusing: operation, of: location, response: response) { throw error }
        return response
    }
}

extension S3Error {
    /// The store's refusal of `operation`, read from its `<Error>` body when
    /// it sent one; `nil` for a 2xx whose body is not an `<Error>` (a success).
    init?(refusing operation: String, of location: S3Location, response: Response) {
        let isSuccess = response.status.kind == .successful
        // An empty body (a part's answer, a PUT's) is a success unread.
        let error = response.body.isEmpty ? nil : (try? S3XMLReader.parse(Array(response.body))).flatMap { $0.name == "Error" ? $0 : nil }
        if isSuccess, error == nil { return nil }
        let serviceCode = error?.text(of: "Code")
        let message = error?.text(of: "Message")
        var description = isSuccess
            ? "The store answered \(operation) of \(location) with \(response.status.code) \(response.status.reasonPhrase), but its body is an error"
            : "The store refused \(operation) of \(location): \(response.status.code) \(response.status.reasonPhrase)"
        if let serviceCode { description += ": \(serviceCode)" }
        if let message { description += ": \(message)" }
        self.init(
            code: serviceCode == "NoSuchUpload" ? .uploadNotFound : .serviceError,
            description: description,
            serviceCode: serviceCode,
            status: response.status
        )
    }
}

extension HTTPField.Name {
    /// `x-amz-content-sha256`: the SHA-256 of the payload, in hex, that the signature covers.
    static let amzContentSHA256 = HTTPField.Name("x-amz-content-sha256")!
    /// `x-amz-checksum-crc32`: the payload's CRC-32 in base64 (big-endian bytes), which the store checks.
    static let amzChecksumCRC32 = HTTPField.Name("x-amz-checksum-crc32")!
    /// `x-amz-checksum-sha256`: the payload's SHA-256 in base64, which the store checks.
    static let amzChecksumSHA256 = HTTPField.Name("x-amz-checksum-sha256")!
    /// `x-amz-checksum-algorithm`: the checksum every part of a multipart upload carries.
    static let amzChecksumAlgorithm = HTTPField.Name("x-amz-checksum-algorithm")!
    /// `x-amz-server-side-encryption-customer-algorithm`: SSE-C's algorithm (`AES256`).
    static let amzCustomerKeyAlgorithm = HTTPField.Name("x-amz-server-side-encryption-customer-algorithm")!
    /// `x-amz-server-side-encryption-customer-key`: SSE-C's key, base64.
    static let amzCustomerKey = HTTPField.Name("x-amz-server-side-encryption-customer-key")!
    /// `x-amz-server-side-encryption-customer-key-MD5`: the MD5 of SSE-C's key, base64.
    static let amzCustomerKeyMD5 = HTTPField.Name("x-amz-server-side-encryption-customer-key-MD5")!
    /// `x-amz-request-payer`: `requester` pays for the request.
    static let amzRequestPayer = HTTPField.Name("x-amz-request-payer")!
    /// `x-amz-expected-bucket-owner`: the account that must own the bucket.
    static let amzExpectedBucketOwner = HTTPField.Name("x-amz-expected-bucket-owner")!
}
