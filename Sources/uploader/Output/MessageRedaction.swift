import RequestBuilder

/// Credentials in the URLs a message shows, hidden before it is printed.
///
/// A server's `Location` (a tus or draft upload URL, a presigned link) may
/// carry a user name and password or a token in its query, and the
/// libraries' messages name the URL they were working on
/// ("The server does not know the upload at <url> …"). The contract says
/// no credential is ever written to a log: every line the tool reports
/// goes through ``masking(_:)``. The query is redacted by the library's own
/// rule (`LoggingMiddleware.Redaction`, as `-v` and logging do), with the
/// presigned-URL parameters added.
enum MessageRedaction {
    /// `LoggingMiddleware`'s default, and the credential scope of a
    /// presigned S3 URL, which names the access key.
    static let redaction: LoggingMiddleware.Redaction = {
        var redaction = LoggingMiddleware.Redaction.default
        redaction.queryParameterNames.insert("X-Amz-Credential")
        return redaction
    }()

    /// `message` with every `scheme://` URL's userinfo shown as `user:***@`
    /// (a user name alone, often a token, as `***@`) and the values of
    /// secret query parameters as `<redacted>`: the library's rule
    /// (`Redaction.redactingURLs(in:)`) with the presigned parameters added.
    static func masking(_ message: String) -> String {
        guard message.contains("://") else { return message }
        return redaction.redactingURLs(in: message)
    }
}
