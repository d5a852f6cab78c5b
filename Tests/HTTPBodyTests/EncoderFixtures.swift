import HTTPBody
import HTTPTypes

/// The fixed request heads every encoder golden file is written with, so the
/// goldens hold whole HTTP/1.1 requests and differ only where the encoders do.
enum EncoderFixtures {
    /// `POST /submit` to `example.com`.
    static func post(_ body: RequestBody) async throws -> [UInt8] {
        let request = HTTPRequest(method: .post, scheme: "http", authority: "example.com", path: "/submit")
        return try await RawHTTPRequest(request, body: body).collect()
    }

    /// A `GET` whose request target is `pathAndQuery`.
    static func get(_ pathAndQuery: String) async throws -> [UInt8] {
        let request = HTTPRequest(method: .get, scheme: "http", authority: "example.com", path: pathAndQuery)
        return try await RawHTTPRequest(request, body: nil).collect()
    }

    /// The body of a raw request: the bytes after the head, with chunked
    /// framing removed when the head says `Transfer-Encoding: chunked`.
    static func body(ofRawRequest raw: [UInt8]) -> [UInt8]? {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let headEnd = raw.indices.first(where: { raw[$0...].starts(with: separator) }) else { return nil }
        let head = String(decoding: raw[..<headEnd], as: UTF8.self)
        var rest = Array(raw[(headEnd + 4)...])
        guard head.lowercased().contains("transfer-encoding: chunked") else { return rest }
        var body: [UInt8] = []
        while true {
            guard let lineEnd = rest.indices.first(where: { rest[$0...].starts(with: Array("\r\n".utf8)) }),
                let size = Int(String(decoding: rest[..<lineEnd], as: UTF8.self), radix: 16)
            else { return nil }
            let start = lineEnd + 2
            guard size > 0 else { return Array(rest[start...]) == Array("\r\n".utf8) ? body : nil }
            guard rest.count >= start + size + 2 else { return nil }
            body += rest[start..<start + size]
            rest = Array(rest[(start + size + 2)...])
        }
    }
}
