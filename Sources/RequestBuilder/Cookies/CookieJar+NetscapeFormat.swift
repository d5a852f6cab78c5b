public import Foundation

extension CookieJar {
    /// The lines curl's cookie jars begin with (the first names the format
    /// for every reader of it), and a warning that the file holds secrets.
    public static let netscapeHeader = """
        # Netscape HTTP Cookie File
        # https://curl.se/docs/http-cookies.html
        # This file holds cookies, which can sign in as you: keep it private, as ~/.netrc.

        """

    /// Reads a cookie file in curl's format: the Netscape format, one cookie
    /// a line of seven tab-separated fields (domain, `TRUE` when the cookie
    /// goes to the hosts under the domain too, path, `TRUE` for `Secure`,
    /// expiry in seconds since 1970 or `0` for a session cookie, name,
    /// value), `#HttpOnly_` before the domain of an HTTP-only cookie, other
    /// lines beginning with `#` and blank lines skipped.
    ///
    /// As curl does, a line beginning with `Set-Cookie:` is read as that
    /// field of a response to `url` (`nil`: such a line is an error); a
    /// line of six fields is a cookie with an empty value. Cookies expired
    /// at `date` are dropped.
    ///
    /// - Throws: ``CookieJarError`` naming the first line that is neither a
    ///   cookie, a comment nor blank, or a cookie that could not be sent
    ///   (a control character or `;` in its name or value, a domain cookie
    ///   for a public suffix such as `.com`), and why.
    public init(netscapeFormat text: String, setCookieLinesFrom url: URL? = nil, at date: Date = Date()) throws(CookieJarError) {
        self.init()
        var number = 0
        // "\r\n" is one Character, not a "\r" and a "\n": both end a line.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            number += 1
            var line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.utf8.count >= 11, line.prefix(11).lowercased() == "set-cookie:" {
                guard let url else {
                    throw CookieJarError(line: number, reason: "a Set-Cookie line needs the URL of the response it came from")
                }
                receive(setCookie: String(line.dropFirst(11)), from: url, at: date)
                continue
            }
            var isHTTPOnly = false
            if line.hasPrefix("#HttpOnly_") {
                isHTTPOnly = true
                line = line.dropFirst("#HttpOnly_".count)
            } else if line.hasPrefix("#") || line.allSatisfy({ $0 == " " || $0 == "\t" }) {
                continue
            }
            let cookie = try Self.cookie(inLine: line, number: number, isHTTPOnly: isHTTPOnly)
            insert(cookie, at: date)
        }
    }

    /// The cookie one line of the Netscape format holds.
    private static func cookie(inLine line: Substring, number: Int, isHTTPOnly: Bool) throws(CookieJarError) -> Cookie {
        func fail(_ reason: String) -> CookieJarError { CookieJarError(line: number, reason: reason) }
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
        guard fields.count == 7 || fields.count == 6 else {
            throw fail("\(fields.count) tab-separated field\(fields.count == 1 ? "" : "s"); a cookie line has 7: domain, TRUE/FALSE (subdomains), path, TRUE/FALSE (secure), expiry, name, value")
        }
        let domain = CookieDomain.canonical(fields[0])
        guard !domain.isEmpty, !domain.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "/") }) else {
            throw fail("the domain '\(fields[0])' is not a host name")
        }
        guard let includesSubdomains = flag(fields[1]) else {
            throw fail("the subdomains flag is '\(fields[1])'; give TRUE or FALSE")
        }
        guard fields[2].hasPrefix("/"), !Cookie.hasControlCharacter(fields[2]) else {
            throw fail("the path '\(fields[2])' does not begin with / or holds a control character")
        }
        guard let isSecure = flag(fields[3]) else {
            throw fail("the secure flag is '\(fields[3])'; give TRUE or FALSE")
        }
        guard !fields[4].isEmpty, fields[4].utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw fail("the expiry '\(fields[4])' is not a number of seconds since 1970 (0 for a session cookie)")
        }
        let seconds = fields[4].utf8.count > 12 ? CookieDate.latestSeconds : Double(fields[4]) ?? 0
        let name = fields[5]
        let value = fields.count == 7 ? fields[6] : ""
        guard !name.isEmpty else { throw fail("the cookie has no name") }
        for (part, text) in [("name", name), ("value", value)]
        where Cookie.hasControlCharacter(text) || text.contains(";" as Character) || (part == "name" && text.contains("=" as Character)) {
            throw fail("the cookie's \(part) holds \(part == "name" ? "'=', " : "")';' or a control character, which cannot be sent")
        }
        if includesSubdomains, CookieDomain.isPublicSuffix(domain) || CookieDomain.isIPAddress(domain) {
            throw fail("a cookie for every host under '\(domain)' would go to sites of many owners; give FALSE to send it to '\(domain)' only")
        }
        return Cookie(
            name: name, value: value, domain: domain, isHostOnly: !includesSubdomains, path: fields[2],
            expires: seconds == 0 ? nil : Date(timeIntervalSince1970: seconds), isSecure: isSecure, isHTTPOnly: isHTTPOnly
        )
    }

    private static func flag(_ text: String) -> Bool? {
        switch text.uppercased() {
        case "TRUE": true
        case "FALSE": false
        default: nil
        }
    }

    /// The jar in curl's format (``init(netscapeFormat:setCookieLinesFrom:at:)``
    /// reads it back as it is): ``netscapeHeader``, then a line per cookie,
    /// oldest first. A cookie that line cannot hold (a tab or line break in
    /// a field, a domain beginning with `#`) is left out, never written
    /// broken.
    public var netscapeFormat: String {
        var text = Self.netscapeHeader
        for cookie in cookies where cookie.isWritableAsNetscapeLine {
            let domain = cookie.isHostOnly ? cookie.domain : "." + cookie.domain
            let expiry = cookie.expires.map { String(Int64(CookieDate.clampedSeconds($0.timeIntervalSince1970))) } ?? "0"
            let fields = [
                domain, cookie.isHostOnly ? "FALSE" : "TRUE", cookie.path, cookie.isSecure ? "TRUE" : "FALSE",
                expiry, cookie.name, cookie.value,
            ]
            text += (cookie.isHTTPOnly ? "#HttpOnly_" : "") + fields.joined(separator: "\t") + "\n"
        }
        return text
    }
}

extension Cookie {
    /// Whether a Netscape-format line holds this cookie so that it reads
    /// back the same.
    var isWritableAsNetscapeLine: Bool {
        guard !name.isEmpty, !domain.isEmpty, !domain.hasPrefix("#"), !domain.hasPrefix("."), path.hasPrefix("/"),
              !domain.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") || $0 == UInt8(ascii: "/") }),
              !Cookie.hasControlCharacter(path),
              !Cookie.hasControlCharacter(name), !Cookie.hasControlCharacter(value),
              !name.contains(";" as Character), !name.contains("=" as Character), !value.contains(";" as Character)
        else { return false }
        if !isHostOnly, CookieDomain.isPublicSuffix(domain) || CookieDomain.isIPAddress(domain) { return false }
        if let expires, CookieDate.clampedSeconds(expires.timeIntervalSince1970) <= 0 { return false }
        return !domain.hasPrefix("set-cookie:")
    }
}
