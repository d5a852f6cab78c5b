/// RFC 6265's rules for paths (section 5.1.4).
enum CookiePath {
    /// The default path of a cookie set by a response to `requestPath`:
    /// the path up to, not including, its last `/`; `/` when that leaves
    /// nothing or the path does not begin with `/`.
    static func defaultPath(of requestPath: String) -> String {
        var path = Substring(requestPath)
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
        guard path.hasPrefix("/"), let last = path.lastIndex(of: "/"), last != path.startIndex else { return "/" }
        return String(path[..<last])
    }

    /// Whether `requestPath` path-matches `cookiePath`: they are equal, or
    /// `cookiePath` is a prefix of it that ends with `/` or is followed by `/`.
    static func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
        var path = Substring(requestPath)
        if let query = path.firstIndex(where: { $0 == "?" || $0 == "#" }) { path = path[..<query] }
        if path.isEmpty { path = "/" }
        // Byte by byte: paths are compared as sent, not as Unicode text.
        let request = Array(path.utf8)
        let cookie = Array(cookiePath.utf8)
        guard request.starts(with: cookie) else { return false }
        return request.count == cookie.count || cookie.last == UInt8(ascii: "/") || request[cookie.count] == UInt8(ascii: "/")
    }
}
