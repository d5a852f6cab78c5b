import Foundation

/// Why a request cannot be written as HTTP/1.1; the description names the
/// part of the request at fault.
public struct RawHTTPRequestError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The path is empty or has bytes a request line cannot carry.
        public static let invalidPath = Code("invalidPath")
        /// The authority is empty or has bytes a `Host` line cannot carry.
        public static let invalidAuthority = Code("invalidAuthority")
        /// The request has more than one `Host` field.
        public static let multipleHosts = Code("multipleHosts")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence naming the part of the request at fault.
    public let description: String

    static func invalidPath(_ path: String) -> Self {
        Self(
            code: .invalidPath,
            description: "The request path \(path.debugDescription) is empty or has spaces, control characters or non-ASCII bytes; percent-encode it (RFC 3986)"
        )
    }

    static func invalidAuthority(_ authority: String) -> Self {
        Self(
            code: .invalidAuthority,
            description: "The request authority (host) \(authority.debugDescription) is empty or has spaces, control characters or non-ASCII bytes"
        )
    }

    static let multipleHosts = Self(
        code: .multipleHosts,
        description: "The request has more than one Host field; a request carries exactly one host (RFC 9112, section 3.2)"
    )
}
