import Foundation

/// Why a body sent with a `Content-Encoding` could not be decoded.
public struct ContentDecodingError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// A content coding other than `gzip`, `x-gzip`, `deflate` and `identity`.
        public static let unsupportedCoding = Code("unsupportedCoding")
        /// The bytes are not data of the coding they were sent with.
        public static let corrupt = Code("corrupt")
        /// The body ended before the compressed data did.
        public static let truncated = Code("truncated")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence that says what went wrong, naming the coding.
    public let description: String

    static func unsupported(_ coding: String) -> Self {
        Self(code: .unsupportedCoding, description: "the body is encoded with '\(coding)', which cannot be decoded here (gzip and deflate can)")
    }

    static func corrupt(coding: String, reason: String) -> Self {
        Self(code: .corrupt, description: "the body is not valid \(coding) data: \(reason)")
    }

    static func truncated(coding: String) -> Self {
        Self(code: .truncated, description: "the body ended before its \(coding) data did")
    }
}
