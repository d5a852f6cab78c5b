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
    /// `LoggingMiddleware`'s default, and the other query parameters of a
    /// presigned S3 URL that let its holder act: the session token and the
    /// credential scope.
    static let redaction: LoggingMiddleware.Redaction = {
        var redaction = LoggingMiddleware.Redaction.default
        redaction.queryParameterNames.formUnion(["X-Amz-Security-Token", "X-Amz-Credential"])
        return redaction
    }()

    /// `message` with every `scheme://` URL's userinfo shown as `user:***@`
    /// (a user name alone, often a token, as `***@`) and the values of
    /// secret query parameters as `<redacted>`.
    static func masking(_ message: String) -> String {
        guard message.contains("://") else { return message }
        var result = ""
        var rest = message[...]
        while let separator = rest.firstRange(of: "://") {
            let schemeStart = rest[..<separator.lowerBound].lastIndex { !($0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))) }
                .map { rest.index(after: $0) } ?? rest.startIndex
            var end = rest[separator.upperBound...].firstIndex { $0.isWhitespace || "'\"<>`".contains($0) } ?? rest.endIndex
            // Punctuation closing the sentence or a parenthesis is not the URL's.
            while end > separator.upperBound, ".,;:)]".contains(rest[rest.index(before: end)]) {
                end = rest.index(before: end)
            }
            result += rest[..<schemeStart]
            result += maskingURL(rest[schemeStart..<end], authorityStart: separator.upperBound)
            rest = rest[end...]
        }
        return result + rest
    }

    private static func maskingURL(_ url: Substring, authorityStart: Substring.Index) -> String {
        let authorityEnd = url[authorityStart...].firstIndex { "/?#".contains($0) } ?? url.endIndex
        var authority = String(url[authorityStart..<authorityEnd])
        if let at = authority.lastIndex(of: "@") {
            let userInfo = authority[..<at]
            let shown = userInfo.firstIndex(of: ":").map { userInfo[..<$0] + ":***" } ?? "***"
            authority = shown + authority[at...]
        }
        return url[..<authorityStart] + authority + redaction.redactedPath(String(url[authorityEnd...]))
    }
}
