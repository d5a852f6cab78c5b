import Foundation
public import HTTPBody

/// The one error type of the request layer. Its ``code`` tells apart a bad
/// request description, a transport failure, an unacceptable status and a
/// response that could not be decoded; its description says which field,
/// header or value was at fault.
public struct RequestError: DescribedError, Sendable {
    /// The kind of failure.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The request could not be built: a bad URL, path segment, header or body.
        public static let invalidRequest = Code("invalidRequest")
        /// The request body failed while it was being sent: a file changed
        /// size or could not be read, a boundary turned up in the content.
        /// Sending it again would fail the same way, so it is never retried.
        public static let body = Code("body")
        /// The request could not be sent or the response not received.
        public static let transport = Code("transport")
        /// The server answered with a status the request does not accept.
        public static let unacceptableStatus = Code("unacceptableStatus")
        /// The response body was larger than the limit for reading it into memory.
        public static let responseTooLarge = Code("responseTooLarge")
        /// The response body could not be decoded into the expected type.
        public static let decoding = Code("decoding")
        /// The task sending the request was cancelled.
        public static let cancelled = Code("cancelled")
        /// The exchange did not finish within the request's timeout, which
        /// bounds it whole: connecting, sending the body, and receiving the
        /// head and the whole body (a body read as a stream fails with it
        /// when the time runs out while it is read).
        public static let timedOut = Code("timedOut")
        /// A redirect ``RedirectMiddleware`` cannot follow: too many of
        /// them, a `Location` that is missing, not a URL or not `http` or
        /// `https`, or a body read once (a stream) that it asks for again.
        public static let redirect = Code("redirect")
        /// The host's name does not exist (DNS answered that there is no
        /// such name). Another attempt would get the same answer, so it is
        /// never retried.
        public static let unknownHost = Code("unknownHost")
        /// The server's certificate is not trusted: its issuer is unknown,
        /// it has expired or is not yet valid, or it was issued for another
        /// name. Never retried.
        public static let untrustedCertificate = Code("untrustedCertificate")
        /// The proxy asks for credentials (`407 Proxy Authentication
        /// Required`) that were not given or that it refused. Never retried.
        public static let proxyAuthenticationRequired = Code("proxyAuthenticationRequired")
        /// A ``CredentialStore``'s refresh failed; the error it threw is
        /// ``RequestError/underlying``. Never retried: a retry would call the
        /// refresh (a sign-in, say) again for every attempt.
        public static let credentialRefresh = Code("credentialRefresh")
    }

    /// The kind of failure.
    public let code: Code
    /// A sentence that says what went wrong and names what was at fault.
    public let description: String
    /// The response, for ``Code/unacceptableStatus`` and ``Code/decoding``.
    public let response: Response?
    /// The error that caused this one, if any (a transport's or decoder's).
    public let underlying: (any Error)?

    /// Creates an error.
    public init(code: Code, description: String, response: Response? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.description = description
        self.response = response
        self.underlying = underlying
    }

    /// What an app can do about the failure, in this library's terms, for
    /// the kinds where something helps; `nil` for the others, whose
    /// description says all there is.
    public var recoverySuggestion: String? {
        switch code {
        case .timedOut:
            "Try again later, or allow the request more time with HTTPRequestBuilder.timeout(_:)."
        case .responseTooLarge:
            "Read the response as a stream with RequestClient.stream(_:progress:), or collect it with a higher limit."
        default:
            nil
        }
    }

    /// A request that could not be built, with a sentence naming the culprit.
    public static func invalidRequest(_ description: String, underlying: (any Error)? = nil) -> RequestError {
        RequestError(code: .invalidRequest, description: description, underlying: underlying)
    }
}
