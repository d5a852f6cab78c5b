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

    /// Checks `--max-redirects`' range, and that `-L` is asked of an upload
    /// that can honour it (``validate()``; `s3://` is checked with the
    /// positionals, ``checkRedirectOptions(isObjectStorage:)``).
    func validateRedirects() throws {
        if let maxRedirects, !(0...Self.maximumRedirectsLimit).contains(maxRedirects) {
            throw ValidationError("--max-redirects \(maxRedirects): give a whole number of redirects from 0 to \(Self.maximumRedirectsLimit)")
        }
        guard follow else {
            // As every option: one that would do nothing is refused, not ignored.
            if maxRedirects != nil { throw ValidationError("--max-redirects applies with -L/--follow; add -L") }
            return
        }
        // A resumable or tus upload's server answers with the Location of the
        // upload it made, which the protocol follows itself, and following
        // other redirects would resend parts of an upload the protocol keeps
        // count of; a presigned POST's redirect (success_action_redirect) is
        // the browser's page to show. Refused, never silently ignored.
        for (given, option) in [(resumable, "--resumable"), (tus, "--tus")] where given {
            throw ValidationError("-L/--follow applies to plain uploads; \(option) follows the Location its server gives by itself, so drop -L")
        }
        if presignedPost != nil {
            throw ValidationError("-L/--follow applies to plain uploads; a --presigned-post form's redirect (success_action_redirect) is a page for a browser, so drop -L")
        }
    }

    /// Refuses `-L` for an `s3://` upload, whose requests are signed for one
    /// host: a redirect there is a wrong region or endpoint, to be fixed in
    /// the options, not followed.
    func checkRedirectOptions(isObjectStorage: Bool) throws(InputError) {
        if follow, isObjectStorage {
            throw InputError(.conflictingInput, "-L/--follow does not apply to s3:// uploads, whose requests are signed for one endpoint; give the right --endpoint-url or --region")
        }
    }

    /// The redirect middleware `-L` asks for, or none.
    var redirectPolicy: RedirectMiddleware? {
        follow ? RedirectMiddleware(maximumRedirects: maxRedirects ?? Self.defaultMaximumRedirects) : nil
    }
}
