import Foundation
public import HTTPBody
import RequestBuilder

/// Why a resumable upload could not begin or continue. Each description
/// names the file, URL or header at fault.
public struct ResumableUploadError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The body cannot be sent from an offset: it is read once, or its
        /// length is not known until read.
        public static let bodyNotResumable = Code("bodyNotResumable")
        /// A file the body reads, its boundary or its length changed since
        /// the upload began; nothing was sent.
        public static let bodyChanged = Code("bodyChanged")
        /// The server does not know the upload (404 or 410): it expired, was
        /// cancelled, or completed and forgot it.
        public static let uploadNotFound = Code("uploadNotFound")
        /// The saved state is of another protocol, or another version of it.
        public static let protocolMismatch = Code("protocolMismatch")
        /// The server does not offer what the upload needs (tus: a version
        /// or extension; a size limit below the body's length).
        public static let serverNotCapable = Code("serverNotCapable")
        /// The server answered in a way the protocol does not allow: no
        /// upload URL, no or a wrong offset.
        public static let invalidResponse = Code("invalidResponse")
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

    static func bodyNotResumable(_ reason: String) -> Self {
        Self(code: .bodyNotResumable, description: "The body cannot be sent as a resumable upload: \(reason)")
    }

    static func bodyChanged(_ difference: String) -> Self {
        Self(code: .bodyChanged, description: "The upload cannot be resumed: \(difference); nothing was sent (start a new upload)")
    }

    static func uploadNotFound(_ url: URL, status: Int) -> Self {
        Self(code: .uploadNotFound, description: "The server does not know the upload at \(LoggingMiddleware.Redaction.default.redacted(url)) (status \(status)): it expired, was cancelled, or already completed")
    }

    static func invalidResponse(_ what: String) -> Self {
        Self(code: .invalidResponse, description: "The server's answer breaks the upload protocol: \(what)")
    }
}
