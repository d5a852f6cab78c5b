import Foundation
public import HTTPBody

/// Why a request could not be signed. Each description names the variable,
/// field or value at fault.
public struct AWSSigningError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// An environment variable the credentials need is missing or empty.
        public static let missingCredentials = Code("missingCredentials")
        /// The request cannot be signed as it is: it has no authority, or a
        /// presigned URL cannot be formed from it.
        public static let invalidRequest = Code("invalidRequest")
        /// A presigned URL's lifetime is outside 1 second to 7 days, or not whole seconds.
        public static let invalidExpiry = Code("invalidExpiry")
        /// A streamed (`aws-chunked`) body must declare its length, and this one does not.
        public static let unknownBodyLength = Code("unknownBodyLength")
        /// A streamed body produced more or fewer bytes than it declared.
        public static let bodyLengthMismatch = Code("bodyLengthMismatch")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence that says what went wrong and names the thing at fault.
    public let description: String

    /// Creates an error with a code and a description.
    public init(code: Code, description: String) {
        self.code = code
        self.description = description
    }

    static func missingVariable(_ name: String, empty: Bool) -> Self {
        Self(code: .missingCredentials, description: "The environment variable \(name) is \(empty ? "empty" : "not set"); AWS credentials need AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY (and AWS_SESSION_TOKEN for temporary ones)")
    }

    static func invalidRequest(_ reason: String) -> Self {
        Self(code: .invalidRequest, description: "The request cannot be signed: \(reason)")
    }

    static func invalidExpiry(_ expiry: Duration) -> Self {
        Self(code: .invalidExpiry, description: "A presigned URL's lifetime must be whole seconds from 1 second to 7 days (604800 seconds), not \(expiry)")
    }

    static func unknownBodyLength() -> Self {
        Self(code: .unknownBodyLength, description: "The body has no known length, which an aws-chunked (streaming SigV4) upload must declare in x-amz-decoded-content-length; give the body a length (RequestBody.stream(_:length:))")
    }

    static func bodyLengthMismatch(declared: Int64, actual: String) -> Self {
        Self(code: .bodyLengthMismatch, description: "The body declared \(declared) bytes but produced \(actual); the aws-chunked upload was cut short")
    }
}
