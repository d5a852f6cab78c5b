public import Foundation

extension Cookie {
    /// The most bytes of name and value a cookie may have (RFC 6265bis,
    /// section 5.6, step 4); a larger one is ignored.
    static let maximumPairBytes = 4096
    /// The most bytes an attribute's value may have (RFC 6265bis, section
    /// 5.6, step 8); a longer attribute is ignored.
    static let maximumAttributeBytes = 1024

    /// The cookie a `Set-Cookie` field in a response to `url` sets, read and
    /// checked as RFC 6265 sections 5.2 and 5.3 say, or `nil` when the field
    /// is to be ignored.
    ///
    /// - `Max-Age` wins over `Expires`; a `Max-Age` of 0 or less, or an
    ///   `Expires` in the past, makes a cookie that has expired, which a
    ///   ``CookieJar`` takes as "delete this cookie". `Expires` is read in
    ///   every date form servers send; an unreadable one is ignored.
    /// - A `Domain` makes a cookie for that domain and the hosts under it;
    ///   one that `url`'s host is not under, or that is a public suffix
    ///   (a single label such as `com`, or a registry such as `co.uk`), is
    ///   refused unless it is the host itself (then the cookie is
    ///   host-only). An IP address host gets host-only cookies only.
    /// - Without a `Path` (or with one not beginning with `/`), the path is
    ///   the request's, up to its last `/`.
    /// - `Secure` is refused from an `http` response (RFC 6265bis): only a
    ///   secure origin may set a cookie that only secure origins get.
    /// - Unknown attributes, an attribute longer than 1024 bytes and an
    ///   empty `Domain` are ignored; a field without `=` in its first pair,
    ///   with an empty name, a control character in its name or value, or
    ///   more than 4096 bytes of them is ignored whole.
    ///
    /// - Parameters:
    ///   - setCookie: The field's value.
    ///   - url: The URL of the request the response answered.
    ///   - date: The time the response arrived: `Max-Age` counts from it.
    public init?(setCookie: String, from url: URL, at date: Date = Date()) {
        guard let target = CookieTarget(url) else { return nil }
        var sections = setCookie.split(separator: ";", omittingEmptySubsequences: false)[...]
        guard let pair = sections.popFirst(), let equals = pair.firstIndex(of: "=") else { return nil }
        let name = Self.trimmed(pair[..<equals])
        let value = Self.trimmed(pair[pair.index(after: equals)...])
        guard !name.isEmpty, name.utf8.count + value.utf8.count <= Self.maximumPairBytes,
              !Self.hasControlCharacter(name), !Self.hasControlCharacter(value)
        else { return nil }

        var expires: Date?
        var maximumAge: Date?
        var domainAttribute: String?
        var pathAttribute: String?
        var isSecure = false
        var isHTTPOnly = false
        for section in sections {
            let equals = section.firstIndex(of: "=")
            let attribute = Self.trimmed(section[..<(equals ?? section.endIndex)]).lowercased()
            let text = equals.map { Self.trimmed(section[section.index(after: $0)...]) } ?? ""
            guard text.utf8.count <= Self.maximumAttributeBytes else { continue }
            switch attribute {
            case "expires":
                if let parsed = CookieDate.parse(text) { expires = parsed }
            case "max-age":
                if let seconds = Self.maxAge(text) {
                    maximumAge = Date(timeIntervalSince1970: seconds <= 0
                        ? -CookieDate.latestSeconds
                        : CookieDate.clampedSeconds(date.timeIntervalSince1970 + Double(seconds)))
                }
            case "domain":
                // An empty Domain is ignored (RFC 6265, section 5.2.3).
                if !text.isEmpty { domainAttribute = CookieDomain.canonical(text) }
            case "path":
                pathAttribute = text.hasPrefix("/") ? text : nil
            case "secure": isSecure = true
            case "httponly": isHTTPOnly = true
            default: continue
            }
        }

        var domain = target.host
        var isHostOnly = true
        if let attribute = domainAttribute, !attribute.isEmpty, attribute != target.host {
            guard !CookieDomain.isPublicSuffix(attribute), !CookieDomain.isIPAddress(target.host),
                  CookieDomain.domainMatches(target.host, attribute)
            else { return nil }
            domain = attribute
            isHostOnly = false
        }
        if isSecure, !target.isSecure { return nil }
        self.init(
            name: name, value: value, domain: domain, isHostOnly: isHostOnly,
            path: pathAttribute ?? CookiePath.defaultPath(of: target.path),
            expires: maximumAge ?? expires, isSecure: isSecure, isHTTPOnly: isHTTPOnly
        )
    }

    /// `text` without the spaces and tabs around it.
    private static func trimmed(_ text: Substring) -> String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" }
        guard let first = text.firstIndex(where: { !isBlank($0) }), let last = text.lastIndex(where: { !isBlank($0) }) else { return "" }
        return String(text[first...last])
    }

    /// Whether `text` holds a control character (U+0000 to U+001F, U+007F),
    /// which no cookie may carry.
    static func hasControlCharacter(_ text: String) -> Bool {
        text.utf8.contains { $0 < 0x20 || $0 == 0x7F }
    }

    /// `Max-Age`'s seconds: an optional `-`, then digits only (anything
    /// else ignores the attribute); held to what the clock can add.
    private static func maxAge(_ text: String) -> Int64? {
        let digits = text.hasPrefix("-") ? text.dropFirst() : Substring(text)
        guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        let magnitude = digits.count > 12 ? Int64(1_000_000_000_000) : (Int64(digits) ?? 0)
        return text.hasPrefix("-") ? -magnitude : magnitude
    }
}
