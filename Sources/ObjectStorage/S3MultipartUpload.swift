import Foundation
public import HTTPBody
public import HTTPTypes
public import RequestBuilder
public import ResumableUploads

/// An object sent as a multipart upload: created, its parts sent in
/// parallel straight from the body's file, then completed.
///
/// ```swift
/// let upload = try S3MultipartUpload(
///     body: .file(at: URL(filePath: "backup.tar")),
///     to: S3Location("s3://backups/2026/backup.tar"),
///     partSize: 16 * 1024 * 1024,
///     concurrency: 4
/// )
/// let result = try await upload.send(with: s3) { state in
///     try JSONEncoder().encode(state).write(to: stateFile)   // to resume after a crash
/// }
/// ```
///
/// Each part is a slice of the body: a file body seeks to the part and reads
/// it a chunk at a time, once for its digests and once to send it, so memory
/// is bounded by `concurrency` × the chunk size, not by the part size. The
/// digests are the signed payload hash (SHA-256) and the client's
/// ``S3Client/checksumAlgorithm`` (CRC-32 by default, `x-amz-checksum-crc32`),
/// both of which S3 checks. A part that fails is retried on its own (``S3Client/retry``).
/// When a part fails for good the upload is aborted, unless
/// ``abortsOnFailure`` is off (to resume it later with ``send(with:resumingFrom:stateChanged:progress:)``).
public struct S3MultipartUpload: Sendable {
    /// What a later run needs to continue the upload: the store's upload ID,
    /// where it goes, how the body was cut, and what the body was.
    public struct State: Codable, Sendable, Hashable {
        /// The ID the store gave the upload (`CreateMultipartUpload`).
        public var uploadID: String
        /// The object's bucket.
        public var bucket: String
        /// The object's key.
        public var key: String
        /// Bytes per part (the last part has the rest).
        public var partSize: Int64
        /// What the body was when the upload began.
        public var body: BodyIdentity
        /// The checksum the upload was created with, which every part must carry.
        public var checksumAlgorithm: S3ChecksumAlgorithm

        /// A state; usually decoded from what `stateChanged` was handed in an earlier run.
        public init(
            uploadID: String, bucket: String, key: String, partSize: Int64, body: BodyIdentity,
            checksumAlgorithm: S3ChecksumAlgorithm
        ) {
            self.uploadID = uploadID
            self.bucket = bucket
            self.key = key
            self.partSize = partSize
            self.body = body
            self.checksumAlgorithm = checksumAlgorithm
        }

        /// Decodes a state; one saved before states named their checksum
        /// is of an upload created with SHA-256, the only one sent then.
        public init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            uploadID = try container.decode(String.self, forKey: .uploadID)
            bucket = try container.decode(String.self, forKey: .bucket)
            key = try container.decode(String.self, forKey: .key)
            partSize = try container.decode(Int64.self, forKey: .partSize)
            body = try container.decode(BodyIdentity.self, forKey: .body)
            checksumAlgorithm = try container.decodeIfPresent(S3ChecksumAlgorithm.self, forKey: .checksumAlgorithm) ?? .sha256
        }
    }

    /// The outcome of a completed upload.
    public struct Result: Sendable {
        /// Where the object is.
        public let location: S3Location
        /// The object's `ETag`, as the store reported it.
        public let eTag: String?
        /// How many parts the store already held when the upload resumed.
        public let partsResumed: Int
        /// The `CompleteMultipartUpload` response (its body is the result's XML).
        public let response: Response
    }

    /// The smallest part S3 accepts (every part but the last).
    public static let minimumPartSize: Int64 = 5 * 1024 * 1024
    /// The largest part S3 accepts.
    public static let maximumPartSize: Int64 = 5 * 1024 * 1024 * 1024
    /// The most parts one upload may have.
    public static let maximumPartCount: Int64 = 10_000

    /// Where the object goes.
    public let location: S3Location
    /// The object's bytes.
    public let body: RequestBody
    /// Bytes per part: the size asked for, raised when the body would need
    /// more than 10,000 parts.
    public let partSize: Int64
    /// How many parts are sent at once.
    public let concurrency: Int
    /// Fields for `CreateMultipartUpload` (`Content-Type`, `x-amz-meta-*`,
    /// storage class): the object's headers. Those S3 wants on every step
    /// too go on each part, the listing and the completion as well: an SSE-C
    /// key (`x-amz-server-side-encryption-customer-*`), `x-amz-request-payer`
    /// and `x-amz-expected-bucket-owner` (the abort carries the last two).
    public var headerFields: HTTPFields
    /// Whether a failed upload is aborted, so the store deletes its parts
    /// (on by default); turn it off to keep it for a later resume.
    public var abortsOnFailure = true

    let identity: BodyIdentity

    /// How many parts the body is cut into.
    public var partCount: Int { Int(max(1, (identity.length + partSize - 1) / partSize)) }

    /// Prepares an upload of `body` to `location`.
    ///
    /// - Parameters:
    ///   - body: A body that can be read more than once and whose length is
    ///     known: a file, bytes, a multipart form.
    ///   - location: The bucket and key.
    ///   - partSize: Bytes per part, 5 MiB to 5 GiB (default 8 MiB); raised
    ///     to keep the parts at most 10,000.
    ///   - concurrency: Parts in flight at once, 1 to 64 (default 4).
    ///   - headerFields: The object's headers, sent with `CreateMultipartUpload`
    ///     (and, of them, those every step needs, on each; see ``headerFields``).
    ///     The body's content type is used unless these set one.
    /// - Throws: ``S3Error`` (``S3Error/Code/invalidArgument``) for a part
    ///   size or concurrency out of range, a body read once or of unknown
    ///   length, or a body larger than 10,000 parts of 5 GiB.
    public init(
        body: RequestBody,
        to location: S3Location,
        partSize: Int64 = 8 * 1024 * 1024,
        concurrency: Int = 4,
        headerFields: HTTPFields = [:]
    ) throws(S3Error) {
        guard (Self.minimumPartSize...Self.maximumPartSize).contains(partSize) else {
            throw S3Error(code: .invalidArgument, description: "The part size \(partSize) is outside S3's range of 5 MiB (5242880) to 5 GiB (5368709120) bytes")
        }
        guard (1...64).contains(concurrency) else {
            throw S3Error(code: .invalidArgument, description: "The concurrency \(concurrency) must be from 1 to 64 parts at once")
        }
        do {
            identity = try BodyIdentity(of: body)
        } catch {
            throw S3Error(code: .invalidArgument, description: "The body of \(location) cannot be sent as a multipart upload: \(error)")
        }
        // Ceiling division without overflow: the length is at most Int64.max.
        let needed = identity.length / Self.maximumPartCount + (identity.length % Self.maximumPartCount == 0 ? 0 : 1)
        let raised = max(partSize, (needed + 1024 * 1024 - 1) / (1024 * 1024) * (1024 * 1024))
        guard raised <= Self.maximumPartSize else {
            throw S3Error(code: .invalidArgument, description: "The body of \(location) is \(identity.length) bytes, more than 10,000 parts of 5 GiB")
        }
        self.location = location
        self.body = body
        self.partSize = raised
        self.concurrency = concurrency
        self.headerFields = headerFields
    }

    /// The byte range of part `number` (1-based).
    func range(ofPart number: Int) -> Range<Int64> {
        let start = Int64(number - 1) * partSize
        return start..<min(identity.length, start + partSize)
    }
}
