import Foundation

/// Everything that describes a request before it is built. Endpoints and
/// ``HTTPRequestBuilder`` both fill one in and call ``build()``, so the same
/// description gives the same ``PreparedRequest`` whichever style wrote it.
struct RequestDescription: Sendable {
    var method: HTTPRequest.Method
    var baseURL: URL
    var pathSegments: [String]
    var headerFields: HTTPFields
    var task: HTTPTask
    var timeout: Duration?
    var acceptableStatus: AcceptableStatus

    /// Builds the head and body.
    func build() throws(RequestError) -> PreparedRequest {
        let target = try RequestTarget(baseURL: baseURL)
        var path = target.path
        for (index, segment) in pathSegments.enumerated() {
            path += "/" + (try PathSegment.encode(segment, position: index + 1))
        }
        if path.isEmpty { path = "/" }

        var queryParts: [String] = []
        if let baseQuery = target.query, !baseQuery.isEmpty { queryParts.append(baseQuery) }
        for part in task.query {
            let text: String
            do {
                text = try part.encode()
            } catch {
                throw RequestError.invalidRequest(
                    "Cannot encode the query parameters: \(RequestError.describeEncodingFailure(error))",
                    underlying: error
                )
            }
            if !text.isEmpty { queryParts.append(text) }
        }
        if !queryParts.isEmpty { path += "?" + queryParts.joined(separator: "&") }

        try HeaderValidation.checkNotDerived(headerFields)
        let head = HTTPRequest(
            method: method,
            scheme: target.scheme,
            authority: target.authority,
            path: path,
            headerFields: headerFields
        )
        return PreparedRequest(
            head: head,
            body: try makeBody(),
            timeout: timeout,
            acceptableStatus: acceptableStatus
        )
    }

    private func makeBody() throws(RequestError) -> RequestBody? {
        guard let kind = task.body else { return nil }
        var body: RequestBody
        switch kind {
        case .encoded(let name, let encode):
            do {
                body = try encode()
            } catch {
                throw RequestError.invalidRequest(
                    "Cannot encode the \(name) body: \(RequestError.describeEncodingFailure(error))",
                    underlying: error
                )
            }
        case .multipart(let form):
            do {
                body = try .multipart(form)
            } catch {
                throw RequestError.invalidRequest("Cannot encode the multipart body: \(RequestError.describeEncodingFailure(error))", underlying: error)
            }
        case .data(let data, let contentType):
            body = .data(data, contentType: contentType)
        case .file(let url, let contentType):
            do {
                body = try .file(at: url, contentType: contentType)
            } catch {
                throw RequestError.invalidRequest("Cannot send the file body: \(error.description)", underlying: error)
            }
        case .prepared(let prepared):
            body = prepared
        case .failed(let error):
            throw error
        }
        if let level = task.gzipLevel {
            body = try Self.gzip(body, level: level)
        }
        return body
    }

    private static func gzip(_ body: RequestBody, level: Int) throws(RequestError) -> RequestBody {
        guard (0...9).contains(level) else {
            throw RequestError.invalidRequest("The gzip level \(level) is out of range; use 0 (store) to 9 (smallest)")
        }
        return body.gzipped(level: level)
    }
}

/// The scheme, authority and path of a base URL, checked once.
struct RequestTarget {
    var scheme: String
    var authority: String
    /// The base URL's path, percent-encoded, without a trailing slash.
    var path: String
    /// The base URL's query, percent-encoded, if any.
    var query: String?

    init(baseURL: URL) throws(RequestError) {
        guard let scheme = baseURL.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw RequestError.invalidRequest("The base URL \(baseURL.absoluteString.debugDescription) is not an http or https URL")
        }
        guard let host = baseURL.host(percentEncoded: true), !host.isEmpty else {
            throw RequestError.invalidRequest("The base URL \(baseURL.absoluteString.debugDescription) has no host")
        }
        guard baseURL.user == nil, baseURL.password == nil else {
            // Credentials in URLs end up in logs; the Authorization header is the place for them.
            throw RequestError.invalidRequest("The base URL has a user name or password; send credentials with .authorization(username:password:) instead")
        }
        guard baseURL.fragment == nil else {
            throw RequestError.invalidRequest("The base URL \(baseURL.absoluteString.debugDescription) has a fragment, which is never sent to a server")
        }
        self.scheme = scheme
        let bracketedHost = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        let port = try AuthorityPort.parse(url: baseURL.absoluteString)
        self.authority = port.map { "\(bracketedHost):\($0)" } ?? bracketedHost
        var path = baseURL.path(percentEncoded: true)
        while path.hasSuffix("/") { path.removeLast() }
        self.path = path
        self.query = baseURL.query(percentEncoded: true)
    }
}

/// Percent-encoding of one path segment (RFC 3986, section 3.3).
enum PathSegment {
    /// Encodes every byte outside `pchar`, so `/`, `?` and `#` inside a segment
    /// stay data, never structure.
    static func encode(_ segment: String, position: Int) throws(RequestError) -> String {
        guard !segment.isEmpty else {
            throw RequestError.invalidRequest("Path segment \(position) is empty; it would put \"//\" in the path")
        }
        guard segment != ".", segment != ".." else {
            // Servers and proxies remove dot segments, so the request would reach another resource.
            throw RequestError.invalidRequest(
                "Path segment \(position), \(segment.debugDescription), is a dot segment, which servers resolve away (RFC 3986, section 5.2.4)"
            )
        }
        var encoded = ""
        encoded.reserveCapacity(segment.utf8.count)
        for byte in segment.utf8 {
            if isAllowed(byte) {
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            } else {
                encoded += "%"
                encoded += hexDigits[Int(byte >> 4)]
                encoded += hexDigits[Int(byte & 0x0F)]
            }
        }
        return encoded
    }

    private static let hexDigits = ["0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "A", "B", "C", "D", "E", "F"]

    /// `unreserved / sub-delims / ":" / "@"`.
    private static func isAllowed(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
            UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="),
            UInt8(ascii: ":"), UInt8(ascii: "@"):
            true
        default:
            false
        }
    }
}
