/// The hosts reached directly, bypassing any proxy, read as curl reads
/// `no_proxy`: comma-separated names, each matching the host itself and its
/// subdomains (a leading dot changes nothing: `.example.com` and
/// `example.com` both match `api.example.com`), IP addresses matching
/// exactly, `*` matching every host, and a CIDR block (`127.0.0.0/8`,
/// `fd00::/8`, as curl 7.86 and later read it) matching every IP address in
/// it (a host name is never resolved to be matched). A port after an entry
/// is ignored, as is case and white space around entries.
public struct NoProxyList: Sendable, Hashable {
    /// The entries, lower-cased, without ports or leading dots.
    public let entries: [String]
    /// Whether the list is `*`: every host is reached directly.
    public let matchesEverything: Bool

    /// Parses a `no_proxy` value such as `localhost,.internal,10.0.0.1`.
    ///
    /// - Parameter list: The comma-separated list (`--noproxy`'s argument).
    public init(_ list: String) {
        var entries: [String] = []
        var everything = false
        for raw in list.split(whereSeparator: { $0 == "," || $0 == " " || $0 == "\t" }) {
            var entry = Substring(raw.lowercased())
            if entry == "*" { everything = true; continue }
            if entry.hasPrefix("[") , let close = entry.firstIndex(of: "]") {
                entry = entry[entry.index(after: entry.startIndex)..<close]
            } else if entry.filter({ $0 == ":" }).count == 1, let colon = entry.firstIndex(of: ":") {
                entry = entry[..<colon]
            }
            while entry.hasPrefix(".") { entry = entry.dropFirst() }
            while entry.hasSuffix(".") { entry = entry.dropLast() }
            if !entry.isEmpty { entries.append(String(entry)) }
        }
        self.entries = entries
        self.matchesEverything = everything
    }

    /// No host bypasses the proxy.
    public static let empty = NoProxyList("")

    /// Whether `host` is reached directly.
    ///
    /// - Parameter host: The target's host name or IP address (IPv6 with or
    ///   without brackets).
    public func matches(host: String) -> Bool {
        if matchesEverything { return true }
        var name = Substring(host.lowercased())
        if name.hasPrefix("["), name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        while name.hasSuffix(".") { name = name.dropLast() }
        let address = ipAddressBytes(String(name))
        return entries.contains { entry in
            if name == entry || name.hasSuffix("." + entry) { return true }
            guard let address, let block = IPAddressBlock(entry) else { return false }
            return block.contains(address)
        }
    }
}
