import AsyncHTTPClient
import Crypto
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport

/// One request and its response, sent as a plain HTTP exchange with
/// AsyncHTTPClient (which hides `104` interim responses), for checking the
/// test servers without the clients under construction.
struct PlainExchange {
    struct Reply {
        let status: Int
        let headers: HTTPHeaders
        let body: [UInt8]

        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    /// Sends `method` to `url` with `headers` and `body` (`Content-Length` set
    /// from it), and collects a response of at most 1 MiB.
    static func send(_ method: String, _ url: URL, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: url.absoluteString)
        request.method = HTTPMethod(rawValue: method)
        request.headers = HTTPHeaders(headers)
        if let body {
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
        let collected = try await response.body.collect(upTo: 1024 * 1024)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Array(buffer: collected))
    }

    /// The smoke tests' body: small, so the suite stays fast, and random.
    static func randomBody(count: Int = 100_000) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
    }

    /// Client-to-server bytes on a connection before the proxy cuts it:
    /// inside the smoke tests' body, past any head.
    static let cutAfter = 40_000

    /// A proxy in front of `server` that cuts the first connection to pass `cutAfter` bytes.
    static func proxyCuttingOnce(to server: URL) async throws -> FaultProxy {
        try await FaultProxy.start(target: server, cutAfter: cutAfter, cuts: 1)
    }

    /// SHA-256 in lowercase hex, as both servers report it.
    static func sha256Hex(_ bytes: [UInt8]) -> String {
        SHA256.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
    }
}
