/// RFC 6265's rules for hosts and domains (sections 5.1.2, 5.1.3, 5.3).
enum CookieDomain {
    /// `name` in lower case (ASCII), without a leading dot or the brackets
    /// of an IPv6 address, as cookies and hosts are compared.
    static func canonical(_ name: some StringProtocol) -> String {
        var text = Substring(name)
        if text.hasPrefix("[") && text.hasSuffix("]") { text = text.dropFirst().dropLast() }
        while text.hasPrefix(".") { text = text.dropFirst() }
        return String(text.lowercased())
    }

    /// Whether `host` domain-matches `domain` (section 5.1.3): they are
    /// equal, or `domain` ends `host` after a dot and `host` is a name, not
    /// an IP address.
    static func domainMatches(_ host: String, _ domain: String) -> Bool {
        // Byte by byte: names are compared as they are sent, not as Unicode text.
        let name = Array(host.utf8)
        let suffix = Array(domain.utf8)
        if name == suffix { return true }
        guard !suffix.isEmpty, name.count > suffix.count, name.reversed().starts(with: suffix.reversed()),
              name[name.count - suffix.count - 1] == UInt8(ascii: ".")
        else { return false }
        return !isIPAddress(host)
    }

    /// Whether `host` is an IPv4 or IPv6 address rather than a name.
    static func isIPAddress(_ host: String) -> Bool {
        if host.contains(":" as Character) { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { !$0.isEmpty && $0.count <= 3 && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }
    }

    /// Whether a `Domain` attribute of `domain` would reach sites of many
    /// owners (section 5.3, step 5, "public suffixes"): a single label
    /// (`com`, `localhost`), or one of the common two-label registries
    /// (`co.uk`). No full public suffix list is carried; these are the
    /// suffixes a server is most likely to be wrong about.
    static func isPublicSuffix(_ domain: String) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        if labels.count <= 1 || labels.contains(where: \.isEmpty) { return true }
        return labels.count == 2 && registries.contains(domain)
    }

    /// Two-label public suffixes under which many unrelated sites register.
    private static let registries: Set<String> = [
        "co.uk", "org.uk", "ac.uk", "gov.uk", "ltd.uk", "me.uk", "net.uk", "plc.uk",
        "com.au", "net.au", "org.au", "edu.au", "gov.au", "co.nz", "org.nz", "co.jp", "ne.jp", "or.jp",
        "ac.jp", "go.jp", "co.kr", "or.kr", "com.br", "net.br", "org.br", "com.cn", "net.cn", "org.cn",
        "com.tw", "com.hk", "com.sg", "com.mx", "co.in", "co.za", "com.tr", "com.ar", "co.il",
        "github.io", "gitlab.io", "herokuapp.com", "appspot.com", "blogspot.com", "pages.dev", "vercel.app",
        "netlify.app", "azurewebsites.net", "cloudfront.net", "s3.amazonaws.com", "web.app", "firebaseapp.com",
    ]
}
