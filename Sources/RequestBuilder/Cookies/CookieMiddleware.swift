public import Foundation
import HTTPTypes

/// Sends cookies and keeps the ones servers set, as a browser does (RFC
/// 6265): before each request, the ``CookieStore``'s cookies for its URL go
/// in its `Cookie` field (after any the request already has, in one field);
/// after each response, every `Set-Cookie` it carries is taken into the
/// store, whatever the status (a redirect's too).
///
/// ```swift
/// let cookies = InMemoryCookieStore()
/// let client = RequestClient(transport: transport, middleware: [.followingRedirects(), .cookies(cookies)])
/// ```
///
/// Place it after ``RedirectMiddleware``: each hop then passes through it,
/// so a hop gets the cookies for its own URL, including one the redirect
/// itself set, and never another site's. (Before it, only the first request
/// gets cookies and a redirect's `Set-Cookie` is not kept; the redirect
/// rule still drops the `Cookie` field on the way to another origin.)
public struct CookieMiddleware: RequestMiddleware {
    /// The cookies sent and kept.
    public let store: any CookieStore
    /// The clock that decides what has expired; the system's by default.
    public var now: @Sendable () -> Date

    /// Creates the middleware.
    ///
    /// - Parameters:
    ///   - store: The cookies sent and kept.
    ///   - now: The clock that decides what has expired and when `Max-Age`
    ///     ends; inject a fixed one for reproducible tests.
    public init(store: any CookieStore, now: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.now = now
    }

    /// Adds the store's cookies for the request's URL, sends it, and keeps
    /// the cookies the response sets.
    public func handle(_ request: PreparedRequest, next: Next) async throws -> StreamedResponse {
        guard let url = request.url else { return try await next(request) }
        let sent = store.withJar { $0.cookieField(for: url, at: now()) }
        var outgoing = request
        if let sent {
            outgoing = try request.updating { head in
                // One field: RFC 6265 section 5.4 allows no second Cookie.
                head.headerFields[values: .cookie] = [(head.headerFields[values: .cookie] + [sent]).joined(separator: "; ")]
            }
        }
        do {
            let response = try await next(outgoing)
            keep(response.head.headerFields, from: url)
            return response
        } catch let error as RequestError {
            if let response = error.response { keep(response.head.headerFields, from: url) }
            throw error
        }
    }

    private func keep(_ fields: HTTPFields, from url: URL) {
        let setCookies = fields[values: .setCookie]
        guard !setCookies.isEmpty else { return }
        let date = now()
        store.withJar { jar in
            for value in setCookies { jar.receive(setCookie: value, from: url, at: date) }
        }
    }
}

extension RequestMiddleware where Self == CookieMiddleware {
    /// Sends `store`'s cookies with each request and keeps those each
    /// response sets; see ``CookieMiddleware``.
    public static func cookies(_ store: any CookieStore) -> CookieMiddleware {
        CookieMiddleware(store: store)
    }
}
