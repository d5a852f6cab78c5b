public import Foundation
import HTTPBody
public import HTTPTypes

extension LoggingMiddleware {
    /// The header fields and query parameters that carry credentials: a log,
    /// an error's description and `-v` never show their values, and a
    /// redirect or upload URL on another origin never gets those fields
    /// (``PreparedRequest/redaction``). Names compare without regard to case.
    ///
    /// ```swift
    /// var redaction = LoggingMiddleware.Redaction.default
    /// redaction.headerNames.insert("X-Session")
    /// redaction.queryParameterNames.insert("sig")
    /// let logging = LoggingMiddleware.logging(to: logger, redaction: redaction)
    /// ```
    public struct Redaction: Sendable, Hashable {
        /// The names of the header fields whose values are replaced by
        /// ``placeholder``, in any case.
        public var headerNames: Set<String> {
            get { lowercasedHeaderNames }
            set { lowercasedHeaderNames = Set(newValue.map { $0.lowercased() }) }
        }
        /// The names of the query parameters whose values are replaced by
        /// ``placeholder``, in any case and compared after percent-decoding.
        public var queryParameterNames: Set<String> {
            get { lowercasedQueryNames }
            set { lowercasedQueryNames = Set(newValue.map { $0.lowercased() }) }
        }

        private var lowercasedHeaderNames: Set<String>
        private var lowercasedQueryNames: Set<String>

        /// What a redacted value is shown as.
        public static let placeholder = "<redacted>"

        /// The credentials HTTP APIs commonly carry: `Authorization`,
        /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key`,
        /// `X-Amz-Security-Token` and S3's customer-provided encryption key
        /// fields (`X-Amz-Server-Side-Encryption-Customer-Key`, its MD5, and
        /// their `X-Amz-Copy-Source-` forms); `api_key`, `access_token`,
        /// `token`, `X-Amz-Signature` and `X-Amz-Security-Token` query
        /// parameters.
        public static let `default` = Redaction(
            headerNames: [
                "Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Amz-Security-Token",
                "X-Amz-Server-Side-Encryption-Customer-Key", "X-Amz-Server-Side-Encryption-Customer-Key-MD5",
                "X-Amz-Copy-Source-Server-Side-Encryption-Customer-Key",
                "X-Amz-Copy-Source-Server-Side-Encryption-Customer-Key-MD5",
            ],
            queryParameterNames: ["api_key", "access_token", "token", "X-Amz-Signature", "X-Amz-Security-Token"]
        )

        /// Nothing redacted: logs and errors show every value, and a
        /// redirect to another origin keeps every field. For debugging
        /// only; the output then holds the credentials.
        public static let none = Redaction(headerNames: [], queryParameterNames: [])

        /// Creates a redaction of the given header field and query parameter
        /// names; start from ``default`` to add to the usual set.
        public init(headerNames: Set<String>, queryParameterNames: Set<String>) {
            lowercasedHeaderNames = Set(headerNames.map { $0.lowercased() })
            lowercasedQueryNames = Set(queryParameterNames.map { $0.lowercased() })
        }

        /// Whether the value of the field named `name` is hidden.
        public func redacts(_ name: HTTPField.Name) -> Bool {
            lowercasedHeaderNames.contains(name.canonicalName)
        }

        /// Whether the value of the query parameter named `name` (as written
        /// in the URL, percent-encoded or not) is hidden.
        public func redactsQueryParameter(_ name: some StringProtocol) -> Bool {
            let raw = String(name)
            if lowercasedQueryNames.contains(raw.lowercased()) { return true }
            let decoded = raw.replacingPlusAndPercentEscapes()
            return lowercasedQueryNames.contains(decoded.lowercased())
        }

        /// The fields in order, with the value of every redacted one
        /// replaced by ``placeholder``, and the URL in a `Location`,
        /// `Content-Location` or `Referer` shown as ``redactingURLs(in:)``
        /// shows it.
        public func redacted(_ fields: HTTPFields) -> HTTPFields {
            var result = HTTPFields()
            result.reserveCapacity(fields.count)
            for field in fields {
                if redacts(field.name) {
                    result.append(HTTPField(name: field.name, value: Self.placeholder))
                } else if Self.urlFields.contains(field.name) {
                    result.append(HTTPField(name: field.name, value: redactingURLs(in: field.value)))
                } else {
                    result.append(field)
                }
            }
            return result
        }

        /// The fields whose value is a URL, which may carry credentials of its own.
        private static let urlFields: [HTTPField.Name] = [.location, .contentLocation, .referer]

        /// A path with its query (`/a?token=x&b=1`), the value of every
        /// redacted query parameter replaced by ``placeholder``.
        public func redactedPath(_ path: String) -> String {
            // Searched by scalar, not Character: a combining mark after `?`,
            // `&` or `=` joins it into one Character that is not the delimiter,
            // and the pair after it would be logged unredacted.
            let scalars = path.unicodeScalars
            guard let mark = scalars.firstIndex(of: "?") else { return path }
            let query = scalars[scalars.index(after: mark)...]
            let fragmentStart = query.firstIndex(of: "#") ?? query.endIndex
            let pairs = query[..<fragmentStart].split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "="), redactsQueryParameter(String(pair[..<equals])) else { return String(pair) }
                return String(pair[..<equals]) + "=" + Self.placeholder
            }
            return String(scalars[...mark]) + pairs.joined(separator: "&") + String(query[fragmentStart...])
        }

        /// The request head with redacted field values and query parameter
        /// values replaced by ``placeholder``, and the password of any user
        /// information in its authority shown as `***`.
        public func redacted(_ head: HTTPRequest) -> HTTPRequest {
            var head = head
            head.headerFields = redacted(head.headerFields)
            if let path = head.path { head.path = redactedPath(path) }
            if let authority = head.authority { head.authority = Self.hidingPassword(inAuthority: authority) }
            return head
        }

        /// `url` as text, as ``redactingURLs(in:)`` shows it: how an error
        /// names a URL.
        public func redacted(_ url: URL) -> String {
            redactingURLs(in: url.absoluteString)
        }

        /// `text` with every `scheme://` URL in it shown without its
        /// credentials: the password of its user information as `***` (a
        /// user name alone, often a token, as `***`) and the value of every
        /// redacted query parameter as ``placeholder``. A text without
        /// `://` (a relative `Location`) has its query redacted as a path's.
        public func redactingURLs(in text: String) -> String {
            guard text.firstRange(of: "://") != nil else { return redactedPath(text) }
            var result = ""
            var rest = text[...]
            while let separator = rest.firstRange(of: "://") {
                let schemeStart = rest[..<separator.lowerBound].lastIndex { !($0.isASCII && ($0.isLetter || $0.isNumber || "+-.".contains($0))) }
                    .map { rest.index(after: $0) } ?? rest.startIndex
                var end = Self.urlEnd(in: rest[separator.upperBound...])
                // Punctuation closing a sentence or a parenthesis is not the URL's.
                while end > separator.upperBound, ".,;:)]".contains(rest[rest.index(before: end)]) {
                    end = rest.index(before: end)
                }
                result += rest[..<schemeStart]
                result += redactingURL(rest[schemeStart..<end], authorityStart: separator.upperBound)
                rest = rest[end...]
            }
            return result + rest
        }

        /// Where a URL starting `text` ends: at a space or a quote, or a `<`
        /// that does not begin ``placeholder`` (a URL redacted before is
        /// one URL still).
        private static func urlEnd(in text: Substring) -> Substring.Index {
            var index = text.startIndex
            while index < text.endIndex {
                let character = text[index]
                if character == "<", text[index...].hasPrefix(placeholder) {
                    index = text.index(index, offsetBy: placeholder.count)
                    continue
                }
                if character.isWhitespace || "'\"<>`".contains(character) { return index }
                index = text.index(after: index)
            }
            return text.endIndex
        }

        private func redactingURL(_ url: Substring, authorityStart: Substring.Index) -> String {
            let authorityEnd = url[authorityStart...].firstIndex { "/?#".contains($0) } ?? url.endIndex
            var authority = String(url[authorityStart..<authorityEnd])
            if let at = authority.lastIndex(of: "@") {
                let userInfo = authority[..<at]
                let shown = userInfo.firstIndex(of: ":").map { userInfo[..<$0] + ":***" } ?? "***"
                authority = shown + authority[at...]
            }
            return url[..<authorityStart] + authority + redactedPath(String(url[authorityEnd...]))
        }

        /// The names of the fields in `fields` that carry credentials, in order.
        package func credentialNames(in fields: HTTPFields) -> [HTTPField.Name] {
            var names: [HTTPField.Name] = []
            for field in fields where redacts(field.name) && !names.contains(field.name) {
                names.append(field.name)
            }
            return names
        }

        /// `user:password@host` as `user:***@host`; anything else as it is.
        static func hidingPassword(inAuthority authority: String) -> String {
            // By scalar, as in ``redactedPath(_:)``: `@` followed by a combining mark is still the delimiter.
            let scalars = authority.unicodeScalars
            guard let at = scalars.lastIndex(of: "@") else { return authority }
            let userInfo = scalars[..<at]
            guard let colon = userInfo.firstIndex(of: ":") else { return authority }
            return String(userInfo[..<colon]) + ":***" + String(scalars[at...])
        }
    }
}

extension String {
    /// `+` as a space and `%XX` escapes decoded, for comparing a query
    /// parameter's name; invalid escapes and bytes are kept as written.
    fileprivate func replacingPlusAndPercentEscapes() -> String {
        // `+` is never a hex digit, so turning it into a space first leaves
        // every escape as it was, and a `%2B` still decodes to `+`.
        let spaced = utf8.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }
        return String(decoding: PercentEncoding.decode(spaced), as: UTF8.self)
    }
}
