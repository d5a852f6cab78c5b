import Foundation
import FuzzSupport
@testable import RequestBuilder

/// Feeds arbitrary text to the cookie engine as a cookie file (curl's
/// Netscape format, with `Set-Cookie:` lines) or as `Set-Cookie` fields of
/// a response, as a server or a stale file may send them.
///
/// Invariants: nothing traps; a failure names a line the text has; a jar
/// read and written reads back as the same cookies (every cookie a file
/// gave, and every cookie from a response that a line can hold); a cookie
/// is never stored for, nor returned to, a host that does not
/// domain-match it (host-only: the host itself; otherwise the domain or a
/// name under it, never an IP address, never a public suffix such as
/// `com`), a `Secure` one never over `http`, nor under a path it does not match.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCookies(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let mode = input.byte()
    let base = hosts[Int(input.byte()) % hosts.count]
    let scheme = input.byte() & 1 == 0 ? "http" : "https"
    let path = paths[Int(input.byte()) % paths.count]
    guard let url = URL(string: "\(scheme)://\(base)\(path)") else { return 0 }
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let text = input.rest()
    let lines = text.unicodeScalars.filter { $0 == "\n" }.count + 1

    var jar: CookieJar
    if mode & 1 == 0 {
        // A cookie file; with mode bit 1, Set-Cookie lines in it answer `url`.
        let lineURL = mode & 2 == 0 ? nil : url
        do {
            jar = try CookieJar(netscapeFormat: text, setCookieLinesFrom: lineURL, at: now)
        } catch {
            fuzzCheck(error.line >= 1 && error.line <= lines, "line \(error.line) of a \(lines)-line text \(text.debugDescription)")
            return 0
        }
        if lineURL == nil {
            fuzzCheck(jar.cookies.allSatisfy(\.isWritableAsNetscapeLine), "a cookie read from a file cannot be written back: \(jar.cookies) from \(text.debugDescription)")
        }
        let written = jar.netscapeFormat
        do {
            let reread = try CookieJar(netscapeFormat: written, at: now)
            fuzzCheck(reread.cookies == jar.cookies.filter(\.isWritableAsNetscapeLine), "written \(written.debugDescription) read back as \(reread.cookies), not \(jar.cookies)")
        } catch {
            fuzzCheck(false, "what the writer made does not read back (\(error)): \(written.debugDescription)")
        }
    } else {
        jar = CookieJar()
        for field in text.split(separator: "\n") {
            guard let cookie = jar.receive(setCookie: String(field), from: url, at: now) else { continue }
            fuzzCheck(cookie.isSent(to: url, at: now) || cookie.isExpired(at: now) || !pathMatches(url.path(percentEncoded: true), cookie.path),
                      "\(cookie) set by \(url) is not sent back to it")
            fuzzCheck(!cookie.isSecure || scheme == "https", "\(cookie) was set Secure over http")
            let host = CookieDomain.canonical(url.host(percentEncoded: false) ?? "")
            if cookie.isHostOnly {
                fuzzCheck(Array(cookie.domain.utf8) == Array(host.utf8), "host-only \(cookie) set by \(host)")
            } else {
                fuzzCheck(domainMatches(host, cookie.domain) && cookie.domain.contains("."), "\(cookie) set by \(host) from \(field.debugDescription)")
            }
        }
    }
    // Every cookie returned for a host matches it, checked here independently.
    for target in targets {
        for cookie in jar.cookies(for: target.url, at: now) {
            let hostMatches = cookie.isHostOnly ? Array(cookie.domain.utf8) == Array(target.host.utf8) : domainMatches(target.host, cookie.domain)
            fuzzCheck(hostMatches, "\(cookie) returned for \(target.url)")
            fuzzCheck(!cookie.isSecure || target.url.scheme == "https", "Secure \(cookie) returned for \(target.url)")
            fuzzCheck(pathMatches(target.path, cookie.path), "\(cookie) returned for the path of \(target.url)")
            fuzzCheck(!cookie.isExpired(at: now), "expired \(cookie) returned")
        }
    }
    return 0
}

private let hosts = ["example.com", "www.example.com", "a.b.example.co.uk", "127.0.0.1", "localhost", "[::1]", "xn--bcher-kva.example", "EXAMPLE.org:8080"]
private let paths = ["/", "/docs", "/docs/", "/docs/a/b", "/docsx", "/a%20b/c?x=/y"]

/// Every host, scheme and path above as a URL, made once: the checks ask
/// the jar about each of them for every input.
private let targets: [(url: URL, host: String, path: String)] = hosts.flatMap { host in
    ["http", "https"].flatMap { scheme in
        paths.compactMap { path in
            URL(string: "\(scheme)://\(host)\(path)").map { url in
                (url, CookieDomain.canonical(url.host(percentEncoded: false) ?? ""), url.path(percentEncoded: true))
            }
        }
    }
}

/// RFC 6265, section 5.1.3, byte for byte: equal, or `domain` ends `host`
/// after a dot and `host` has a letter in it (no IP address).
private func domainMatches(_ host: String, _ domain: String) -> Bool {
    let h = Array(host.utf8), d = Array(domain.utf8)
    if h == d { return true }
    guard !d.isEmpty, h.count > d.count, Array(h.suffix(d.count)) == d, h[h.count - d.count - 1] == UInt8(ascii: ".") else { return false }
    return !host.contains(":") && host.utf8.contains { !(0x30...0x39).contains($0) && $0 != UInt8(ascii: ".") }
}

/// RFC 6265, section 5.1.4, byte for byte.
private func pathMatches(_ requestPath: String, _ cookiePath: String) -> Bool {
    var p = Array(requestPath.utf8)
    if let end = p.firstIndex(where: { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }) { p = Array(p[..<end]) }
    if p.isEmpty { p = [UInt8(ascii: "/")] }
    let c = Array(cookiePath.utf8)
    guard p.count >= c.count, Array(p.prefix(c.count)) == c else { return false }
    return p.count == c.count || c.last == UInt8(ascii: "/") || p[c.count] == UInt8(ascii: "/")
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzCookies_main")
public func fuzzCookiesMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzCookies)
}
