import HTTPTypes

/// Follows redirects: the library's decision, made the same way whatever the
/// transport (both built-in transports leave redirects to it).
///
/// Without this middleware no redirect is followed: a `3xx` is the response,
/// and fails the request unless its ``PreparedRequest/acceptableStatus``
/// accepts it. With it, as curl's `-L` and HTTPie's `--follow` do:
///
/// - 303, and 301 or 302 after a `POST`, continue as `GET` without the body;
/// - 307 and 308 (and 301 or 302 after other methods) repeat the method and
///   the same body, read again from its source: files are re-opened, so a
///   multipart upload sends the same bytes. A body that can be read only
///   once (`RequestBody.stream`) cannot: the request fails with
///   ``RequestError/Code/redirect`` rather than send a truncated body;
/// - the fields ``PreparedRequest/redaction`` names as credentials
///   (`Authorization`, `Cookie`, `Proxy-Authorization`, `X-Api-Key`… by
///   default) are dropped once a redirect leaves the request's origin
///   (scheme, host and port; ``HTTPOrigin``);
/// - a relative `Location` is resolved against the current URL; a missing
///   one, or one that is not an `http` or `https` URL (`file:`, `ftp:`),
///   fails with ``RequestError/Code/redirect``; so does a chain longer than
///   ``maximumRedirects``.
///
/// ```swift
/// let client = RequestClient(transport: transport, middleware: [.followingRedirects()])
/// ```
///
/// Place it before middleware that add credentials or sign requests if
/// each hop should get them anew, after them if only the first request
/// should (its origin rule then strips them from other origins). Each hop is
/// one request to the rest of the chain, and upload progress starts again
/// from zero. The request's ``PreparedRequest/timeout`` bounds the whole
/// chain, as curl's `--max-time` does: each hop gets what is left of it, and
/// running out on any hop fails the request with
/// ``RequestError/Code/timedOut`` naming the request's timeout. (Retry
/// middleware placed before this one starts the clock again for each
/// attempt.) A redirect's own body is not read.
public struct RedirectMiddleware: RequestMiddleware {
    /// The most redirects followed for one request; one more fails it.
    public var maximumRedirects: Int

    /// The default of ``maximumRedirects``: 20, as browsers allow
    /// (Chromium's and Firefox's limit); enough for any real chain, few
    /// enough that a loop ends quickly.
    public static let defaultMaximumRedirects = 20

    /// Creates the middleware.
    ///
    /// - Parameter maximumRedirects: The most redirects followed for one
    ///   request; values below 0 count as 0 (a redirect then fails the request).
    public init(maximumRedirects: Int = RedirectMiddleware.defaultMaximumRedirects) {
        self.maximumRedirects = max(0, maximumRedirects)
    }

    /// Sends the request, then each request its redirects ask for, and
    /// returns the first response that is not a redirect to follow.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/redirect``) for a
    ///   redirect that cannot be followed; the rest of the chain's errors.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        var current = request
        var followed = 0
        // One clock for the whole chain: each hop gets what is left of the
        // request's timeout, as curl's --max-time bounds every hop together.
        let started = ContinuousClock.now
        while true {
            let response: StreamedResponse
            do {
                response = try await next(current)
            } catch let error as RequestError where error.code == .timedOut && followed > 0 {
                // A hop's own limit is what was left: the message names the request's.
                throw RequestError.timedOut(current, after: request.timeout, underlying: error)
            }
            guard var hop = try current.redirected(by: response.head) else { return response }
            guard followed < maximumRedirects else {
                throw RequestError.redirect(current, "stopped after \(followed) redirect\(followed == 1 ? "" : "s"), the most allowed; the next would be \(hop.describedTarget) (the server redirects in a loop, or too often)")
            }
            // The redirect's body is dropped unread with `response`, which
            // closes its connection rather than read what nobody wants.
            followed += 1
            if let timeout = request.timeout {
                let left = timeout - (ContinuousClock.now - started)
                guard left > .zero else { throw RequestError.timedOut(hop, after: timeout) }
                hop = hop.updating(timeout: left)
            }
            current = hop
        }
    }
}

extension RequestMiddleware where Self == RedirectMiddleware {
    /// Follows up to `max` redirects for each request; see ``RedirectMiddleware``.
    public static func followingRedirects(max: Int = RedirectMiddleware.defaultMaximumRedirects) -> RedirectMiddleware {
        RedirectMiddleware(maximumRedirects: max)
    }
}
