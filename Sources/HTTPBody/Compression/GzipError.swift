import Foundation

/// Why a body could not be compressed.
public struct GzipError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The compressor (libdeflate on Linux, zlib elsewhere) could not be
        /// set up, usually for want of memory.
        public static let initializationFailed = Code("initializationFailed")
        /// The compressor reported an error, or its data for a block could
        /// not be joined to the next block's; nothing more of the body is sent.
        public static let deflateFailed = Code("deflateFailed")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence that says what went wrong, with the compressor's own message where it gives one.
    public let description: String

    static func initializationFailed(status: Int32) -> Self {
        Self(code: .initializationFailed, description: "zlib could not start a gzip stream for the request body (status \(status))")
    }

    static func compressorUnavailable(library: String, level: Int32) -> Self {
        Self(code: .initializationFailed, description: "\(library) could not allocate a compressor at level \(level) for the request body")
    }

    static func deflateFailed(library: String, reason: String) -> Self {
        Self(code: .deflateFailed, description: "\(library) failed while gzip-compressing the request body: \(reason)")
    }

    static func deflateFailed(status: Int32, message: String?) -> Self {
        Self(code: .deflateFailed, description: "zlib failed while gzip-compressing the request body (status \(status)\(message.map { ": \($0)" } ?? ""))")
    }
}
