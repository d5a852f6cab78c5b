import ArgumentParser
import RequestBuilder
import UploaderItems

/// `-L, --follow` and `--max-redirects` (contract, "The real network
/// (version 6)": redirects). The rules of each hop are the library's
/// (`RedirectMiddleware`); this is which uploads use it and how far.
extension UploaderOptions {
    /// `--max-redirects`' default, as curl's.
    static let defaultMaximumRedirects = 30
    /// The most `--max-redirects` allows: past that a chain is a loop.
    static let maximumRedirectsLimit = 100

    /// Checks `--max-redirects`' range, and that it comes with `-L`: an
    /// option that would do nothing is refused, not ignored.
    func validateRedirects() throws {
        if let maxRedirects, !(0...Self.maximumRedirectsLimit).contains(maxRedirects) {
            throw ValidationError("--max-redirects \(maxRedirects): give a whole number of redirects from 0 to \(Self.maximumRedirectsLimit)")
        }
        if !follow, maxRedirects != nil { throw ValidationError("--max-redirects applies with -L/--follow; add -L") }
    }

    /// The redirect middleware `-L` asks for, or none.
    var redirectPolicy: RedirectMiddleware? {
        follow ? RedirectMiddleware(maximumRedirects: maxRedirects ?? Self.defaultMaximumRedirects) : nil
    }
}
