import Foundation
public import HTTPBody
public import HTTPTypes

/// Why an object-store operation failed. Each description is a sentence that
/// names the bucket, key, part or field at fault, and for the store's own
/// refusals carries its error code and message.
public struct S3Error: DescribedError, Sendable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// A bucket, key, part size, policy or presigned form that cannot be
        /// used; nothing was sent.
        public static let invalidArgument = Code("invalidArgument")
        /// The store refused the request: ``S3Error/serviceCode`` and
        /// ``S3Error/status`` say how.
        public static let serviceError = Code("serviceError")
        /// The store answered with something S3 does not send (no upload ID,
        /// unreadable XML, a part list that disagrees with itself).
        public static let invalidResponse = Code("invalidResponse")
        /// The file changed since the multipart upload began; nothing was sent.
        public static let bodyChanged = Code("bodyChanged")
        /// The store no longer knows the multipart upload (`NoSuchUpload`):
        /// it was completed or aborted.
        public static let uploadNotFound = Code("uploadNotFound")
        /// The AWS set-up cannot be used: a profile that does not exist, no
        /// credentials anywhere, or a shared file that cannot be read; nothing was sent.
        public static let invalidConfiguration = Code("invalidConfiguration")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence that says what went wrong and names the thing at fault.
    public let description: String
    /// The store's error code (`NoSuchBucket`, `SignatureDoesNotMatch`, ...), when it sent one.
    public let serviceCode: String?
    /// The response status, when the store answered.
    public let status: HTTPResponse.Status?

    /// Creates an error.
    public init(code: Code, description: String, serviceCode: String? = nil, status: HTTPResponse.Status? = nil) {
        self.code = code
        self.description = description
        self.serviceCode = serviceCode
        self.status = status
    }

    /// Whether trying the same request again may succeed: a 5xx, 408, 429,
    /// or S3's `InternalError`/`SlowDown` inside a 200.
    ///
    /// An error the store sent inside a `200` (``status`` 2xx) that is not
    /// transient, such as `AccessDenied`, is a refusal like a 4xx.
    public var isTransient: Bool {
        if let status, status.code >= 500 || status.code == 408 || status.code == 429 { return true }
        return ["InternalError", "SlowDown", "ServiceUnavailable", "RequestTimeout"].contains(serviceCode ?? "")
    }
}
