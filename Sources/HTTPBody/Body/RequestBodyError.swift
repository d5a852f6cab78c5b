import Foundation

/// Why a body could not be created or read. Each description names the file
/// or value at fault.
public struct RequestBodyError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The file does not exist.
        public static let fileNotFound = Code("fileNotFound")
        /// The path names a directory or another kind of non-regular file.
        public static let notARegularFile = Code("notARegularFile")
        /// The file exists but could not be opened or read.
        public static let fileUnreadable = Code("fileUnreadable")
        /// The file's size changed between measuring it and sending it.
        public static let fileChangedSize = Code("fileChangedSize")
        /// A body that can be read once was read a second time.
        public static let alreadyConsumed = Code("alreadyConsumed")
        /// A body was larger than the caller allowed.
        public static let tooLarge = Code("tooLarge")
        /// A stream produced a different number of bytes than its declared length.
        public static let streamLengthMismatch = Code("streamLengthMismatch")
        /// A part of the body was asked for that cannot be given: the body is
        /// read once, its length is unknown until read, or the range is
        /// outside it.
        public static let notSliceable = Code("notSliceable")
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

    static func fileNotFound(_ path: String) -> Self {
        Self(code: .fileNotFound, description: "No such file: \(path)")
    }

    static func notARegularFile(_ path: String, isDirectory: Bool) -> Self {
        Self(code: .notARegularFile, description: isDirectory ? "\(path) is a directory, not a file" : "\(path) is not a regular file")
    }

    static func fileUnreadable(_ path: String, errno: Int32) -> Self {
        Self(code: .fileUnreadable, description: "Cannot read \(path): \(SystemErrorText.describe(errno))")
    }

    static func fileChangedSize(_ path: String, expected: Int64, actual: String) -> Self {
        Self(
            code: .fileChangedSize,
            description: "\(path) changed size while it was being sent (expected \(expected) bytes, \(actual)); the upload was stopped so the server does not receive a body that disagrees with its Content-Length"
        )
    }

    static let alreadyConsumed = Self(
        code: .alreadyConsumed,
        description: "This body reads from a stream and was already sent once; a stream cannot be replayed (retries need a body from memory or a file)"
    )

    static func tooLarge(limit: Int) -> Self {
        Self(code: .tooLarge, description: "The body is larger than the \(limit)-byte limit for reading it into memory")
    }

    static func notSliceable(_ reason: String) -> Self {
        Self(code: .notSliceable, description: "The body cannot be sent from an offset: \(reason)")
    }

    static func streamLengthMismatch(declared: Int64, actual: String) -> Self {
        Self(code: .streamLengthMismatch, description: "The stream declared \(declared) bytes but produced \(actual)")
    }
}

extension RequestBodyError {
    /// The same error with the part's field name in front, so a message names both.
    func naming(part: String) -> RequestBodyError {
        RequestBodyError(code: code, description: "Part \(part.debugDescription): \(description)")
    }
}
