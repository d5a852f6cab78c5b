import Foundation

/// The port written in a URL's authority, read from the text rather than
/// from `URL.port`: Foundation hands back 99999 as it is and drops a
/// 20-digit port (the request would go to port 80), and a port past 65535
/// makes NIO's socket address trap.
package enum AuthorityPort {
    /// The port of an authority such as `example.com:8080`, `[::1]:443` or
    /// `user@host:81`; `nil` when it names none (or an empty one, which RFC
    /// 3986 §3.2.3 reads as the scheme's default).
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) for
    ///   a port that is not a number from 0 to 65535.
    package static func parse(authority: Substring) throws(RequestError) -> Int? {
        let hostAndPort = authority.lastIndex(of: "@").map { authority[authority.index(after: $0)...] } ?? authority
        let afterHost: Substring
        if hostAndPort.hasPrefix("[") {
            guard let close = hostAndPort.firstIndex(of: "]") else { return nil }
            afterHost = hostAndPort[hostAndPort.index(after: close)...]
        } else {
            afterHost = hostAndPort.firstIndex(of: ":").map { hostAndPort[$0...] } ?? ""
        }
        guard afterHost.hasPrefix(":") else { return nil }
        let digits = afterHost.dropFirst()
        guard !digits.isEmpty else { return nil }
        guard digits.count <= 5, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let port = Int(digits), port <= 65535 else {
            throw RequestError.invalidRequest("The port \(String(digits).debugDescription) in \(String(authority).debugDescription) is not a number from 0 to 65535")
        }
        return port
    }

    /// The port of a URL's authority (see ``parse(authority:)``).
    package static func parse(url text: String) throws(RequestError) -> Int? {
        guard let start = text.firstRange(of: "://")?.upperBound else { return nil }
        let rest = text[start...]
        let end = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        return try parse(authority: rest[..<end])
    }
}
