import Foundation

/// Why a body could not be compressed.
public struct GzipError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// zlib could not set up a compression stream (usually out of memory).
        public static let initializationFailed = Code("initializationFailed")
        /// zlib reported an error while compressing.
        public static let deflateFailed = Code("deflateFailed")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence that says what went wrong, with zlib's own message.
    public let description: String

    static func initializationFailed(status: Int32) -> Self {
        Self(code: .initializationFailed, description: "zlib could not start a gzip stream for the request body (status \(status))")
    }

    static func deflateFailed(status: Int32, message: String?) -> Self {
        Self(code: .deflateFailed, description: "zlib failed while gzip-compressing the request body (status \(status)\(message.map { ": \($0)" } ?? ""))")
    }
}
