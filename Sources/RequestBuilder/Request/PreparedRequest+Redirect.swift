import Foundation
import HTTPBody
import HTTPTypes

extension PreparedRequest {
    /// The request a redirect asks for, or `nil` when `response` is not a
    /// redirect to follow (not a 3xx, or 300, 304, 305 or 306, which name no
    /// single target). The one place the next hop is derived, so every
    /// transport follows the same rules (curl's and HTTPie's):
    ///
    /// - 303, and 301 or 302 after a POST: `GET` (a `HEAD` stays `HEAD`),
    ///   without the body and the fields that describe it;
    /// - 307 and 308, and 301 or 302 after any other method: the same method
    ///   and the same body, read again from its source (files re-opened);
    ///   a body that can be read only once fails with
    ///   ``RequestError/Code/redirect``;
    /// - `Location` is resolved against this request's URL (RFC 9110,
    ///   section 10.2.2); one that is missing, repeated, not a URL, not
    ///   `http` or `https`, or without a host is refused, never guessed at;
    ///   a raw space or non-ASCII text in it is percent-encoded and escapes
    ///   already in it are kept (`/a b/%E2%9C%93` is requested as
    ///   `/a%20b/%E2%9C%93`, as curl requests it);
    ///   credentials in it are dropped, never sent;
    /// - a target on another origin (``HTTPOrigin``) gets none of the
    ///   fields ``redaction`` names as credentials (`Authorization`,
    ///   `Cookie`, `Proxy-Authorization`, `X-Api-Key`… by default), and its
    ///   own `Host`. Fields once dropped stay dropped for later hops, since each
    ///   hop is derived from the one before.
    ///
    /// - Throws: ``RequestError`` with code ``RequestError/Code/redirect``.
    func redirected(by response: HTTPResponse) throws(RequestError) -> PreparedRequest? {
        let status = response.status
        let keepsMethod: Bool
        switch status.code {
        case 307, 308: keepsMethod = true
        case 301, 302: keepsMethod = head.method != .post
        case 303: keepsMethod = head.method == .head
        default: return nil
        }
        let answer = "the server answered \(status.withStandardReasonPhrase.text)"
        let locations = response.headerFields[values: .location]
        guard let location = locations.first, !location.isEmpty else {
            throw .redirect(self, "\(answer) without a Location to follow")
        }
        guard locations.count == 1 else {
            throw .redirect(self, "\(answer) with \(locations.count) Location fields; not followed, since they disagree on where to go")
        }
        let shown = Self.quoted(redaction.redactingURLs(in: location))
        // What a URI cannot hold as it is (a raw space, non-ASCII text) is
        // encoded here, and escapes already there are kept, as curl and
        // HTTPie request them: Foundation given a string with a space in it
        // encodes every `%` of it again.
        let escaped = PercentEncoding.encodeKeepingEscapes(location, allowing: .uriCharacters)
        guard let current = url,
              let resolved = URL(string: escaped, relativeTo: current)?.absoluteURL,
              var components = URLComponents(url: resolved, resolvingAgainstBaseURL: true)
        else {
            throw .redirect(self, "\(answer) with Location \(shown), which is not a URL; not followed")
        }
        guard let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw .redirect(self, "\(answer) with Location \(shown), which is not an http or https URL; not followed")
        }
        // Credentials a server puts in a Location are its choice, not the
        // user's: never sent. A fragment is never sent either.
        components.user = nil
        components.password = nil
        components.fragment = nil
        components.scheme = scheme
        guard let target = components.url, let host = components.percentEncodedHost, !host.isEmpty else {
            throw .redirect(self, "\(answer) with Location \(shown), which names no host; not followed")
        }
        let port: Int?
        do {
            port = try AuthorityPort.parse(url: target.absoluteString)
        } catch {
            throw .redirect(self, "\(answer) with Location \(shown): \(error.description); not followed")
        }
        let bracketed = host.contains(":" as Character) && !host.hasPrefix("[") ? "[\(host)]" : host
        let authority = port.map { "\(bracketed):\($0)" } ?? bracketed
        var path = components.percentEncodedPath
        if path.isEmpty { path = "/" }
        if let query = components.percentEncodedQuery { path += "?" + query }

        var next = head
        next.method = keepsMethod ? head.method : (head.method == .head ? .head : .get)
        next.scheme = scheme
        next.authority = authority
        next.path = path
        if HTTPOrigin(current) != HTTPOrigin(target) {
            for name in redaction.credentialNames(in: next.headerFields) + [.hostField] {
                next.headerFields[name] = nil
            }
        }
        var nextBody: RequestBody?
        if keepsMethod {
            nextBody = body
        } else {
            for name in [HTTPField.Name.contentType, .contentEncoding, .contentLength, .transferEncoding, .expect] {
                next.headerFields[name] = nil
            }
        }
        if let nextBody, !nextBody.isReplayable {
            throw .redirect(self, "\(answer) to \(redaction.redacted(target)), which asks for the body again, but the body is read once (a stream) and cannot be sent again")
        }
        do {
            return try PreparedRequest(head: next, body: nextBody, timeout: timeout, acceptableStatus: acceptableStatus, redaction: redaction)
        } catch {
            throw .redirect(self, "\(answer) with Location \(shown), which cannot be requested: \(error.description)")
        }
    }

    /// A server's text for a message: quoted, at most 200 characters.
    private static func quoted(_ text: String) -> String {
        (text.count > 200 ? String(text.prefix(200)) + "…" : text).debugDescription
    }
}
