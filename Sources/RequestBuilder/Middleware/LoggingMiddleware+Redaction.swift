import HTTPBody
public import HTTPTypes

extension LoggingMiddleware {
    /// The header fields and query parameters whose values a log never
    /// shows; names compare without regard to case.
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
        /// `Proxy-Authorization`, `Cookie`, `Set-Cookie`, `X-Api-Key` and
        /// `X-Amz-Security-Token` fields; `api_key`, `access_token`,
        /// `token` and `X-Amz-Signature` query parameters.
        public static let `default` = Redaction(
            headerNames: ["Authorization", "Proxy-Authorization", "Cookie", "Set-Cookie", "X-Api-Key", "X-Amz-Security-Token"],
            queryParameterNames: ["api_key", "access_token", "token", "X-Amz-Signature"]
        )

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
        /// replaced by ``placeholder``.
        public func redacted(_ fields: HTTPFields) -> HTTPFields {
            var result = HTTPFields()
            result.reserveCapacity(fields.count)
            for field in fields {
                result.append(redacts(field.name) ? HTTPField(name: field.name, value: Self.placeholder) : field)
            }
            return result
        }

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
