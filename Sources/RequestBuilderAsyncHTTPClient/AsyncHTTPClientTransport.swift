public import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import NIOCore
import NIOHTTP1
public import RequestBuilder

/// Sends requests with AsyncHTTPClient, streaming bodies from their source
/// to the socket in constant memory.
///
/// The body is read one chunk at a time as the connection asks for it, so a
/// 10 GB file costs a few chunks of memory; the response body is handed on
/// as it arrives (`StreamedResponse`). File and multipart bodies are
/// read straight into the buffers written to the socket. A body of known
/// length goes out with `Content-Length`, others with chunked encoding.
/// Upload progress counts the bytes handed to the connection. Cancelling the
/// calling task closes the request.
///
/// A request's `timeout` bounds the whole exchange: connecting, sending the
/// body, the response head and the response body. The body of the returned
/// `StreamedResponse` is bounded by the same deadline: a read after it has
/// passed fails with `RequestError.Code.timedOut` and closes the connection.
///
/// With any client and any event-loop group, the transport hands over the
/// next chunk only once the client's loops have taken the last, so an upload
/// holds at most two chunks (1 MiB by default) however fast its source is.
public struct AsyncHTTPClientTransport: HTTPTransport {
    /// The client that sends the requests.
    public let client: HTTPClient
    /// The memory each body chunk handed to the connection takes (its bytes
    /// are 64 fewer, the room its buffer's alignment takes).
    public var chunkSize: Int
    /// The clients of a transport made from TLS and proxy settings, which
    /// choose one per request; `nil` sends everything with ``client``.
    var routes: ClientRoutes?

    /// Creates a transport.
    ///
    /// - Parameters:
    ///   - client: The client to use; ``sharedClient`` by default. A client
    ///     of your own should be made with ``configuration(connectTimeout:)``:
    ///     with AsyncHTTPClient's defaults, a server answering with a status
    ///     below 100 makes AsyncHTTPClient trap, a path whose percent-encoded
    ///     bytes are not UTF-8 goes out as `/`, the client follows
    ///     redirects itself, past `RedirectMiddleware` and its rules, and a
    ///     body sent with `Expect: 100-continue` waits its whole second
    ///     instead of the server's answer (and a marker field goes out with it).
    ///   - chunkSize: How much memory each body chunk takes, 512 KiB by
    ///     default: past that, larger chunks buy little speed and cost memory.
    ///     Chunks of 4 KiB or more carry 64 bytes less than this: the room
    ///     their buffer's alignment takes.
    public init(client: HTTPClient = AsyncHTTPClientTransport.sharedClient, chunkSize: Int = 512 * 1024) {
        self.client = client
        self.chunkSize = chunkSize
    }

    /// Sends one request, the body streamed with back-pressure, and returns
    /// once the response head is in; the response body streams as it is read.
    public func stream(
        _ request: PreparedRequest,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> StreamedResponse {
        guard let url = request.url else {
            throw RequestError.invalidRequest("\(request.head.method.rawValue) request has no valid URL (scheme \(request.head.scheme ?? "none"), authority \(request.head.authority ?? "none"))")
        }
        // A port past 65535 would trap in NIO's socket address.
        _ = try AuthorityPort.parse(authority: Substring(request.head.authority ?? ""))
        let route = try routes?.route(scheme: request.head.scheme ?? "https", host: url.host ?? "") ?? ClientRoutes.Route(client: client)
        let (client, proxy) = (route.client, route.proxy)
        if let problem = routes?.httpsProblem, request.head.scheme?.lowercased() != "http" { throw problem }
        // In absolute form the connection is the proxy's, the request line
        // names the target (RequestTargetRewriter), and Host stays the target's.
        var outgoing = HTTPClientRequest(url: route.absoluteForm ? "http://\(proxy?.authority ?? "")/" : url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.head.method.rawValue)
        // The head as built, Host and framing included: AsyncHTTPClient keeps
        // a Host field and writes its own framing fields, with the same values,
        // in the same place (last): the wire carries RawHTTPRequest's head, field for field.
        for field in request.head.headerFields {
            outgoing.headers.add(name: field.name.rawName, value: field.value)
        }
        if route.absoluteForm, let proxy {
            let target = "http://\(request.head.authority ?? "")\(request.head.path ?? "/")"
            outgoing.headers.add(name: RequestTargetRewriter.markerName, value: target)
            if let username = proxy.username {
                let credentials = Data("\(username):\(proxy.password ?? "")".utf8).base64EncodedString()
                outgoing.headers.replaceOrAdd(name: "Proxy-Authorization", value: "Basic \(credentials)")
            }
        } else if let target = RequestTargetRewriter.markedTarget(for: request.head.path, url: url) {
            outgoing.headers.add(name: RequestTargetRewriter.markerName, value: target)
        }
        var gate: (gate: ContinueGate, marker: String)?
        if let body = request.body {
            var chunks = ByteBufferChunks(
                body: body, chunkSize: max(1, chunkSize), eventLoops: Array(client.eventLoopGroup.makeIterator()), progress: progress
            )
            chunks.sealedInTLSRecords = request.head.scheme?.lowercased() == "https"
            // A body that asks for 100 Continue waits for it (ContinueGate).
            if request.head.headerFields[.expect]?.lowercased() == "100-continue" {
                let registered = ContinueGate.register()
                outgoing.headers.add(name: ContinueGate.markerName, value: registered.marker)
                chunks.gate = registered.gate
                gate = registered
            }
            // The framing the head declares, derived from the body by wireHead.
            let length = request.head.headerFields[.contentLength].flatMap { Int64($0) }
            outgoing.body = .stream(chunks, length: length.map { .known($0) } ?? .unknown)
        }
        // AsyncHTTPClient's deadline ends with the head; the response body
        // is bounded by the same instant as it is read (ResponseChunks).
        let deadline = RequestDeadline(request)
        let headDeadline = request.timeout.map { NIODeadline.now() + TimeAmount(saturating: $0) } ?? .distantFuture
        let started = ContinuousClock.now
        do {
            let response = try await client.execute(outgoing, deadline: headDeadline)
            // The head has gone: a gate no connection claimed (a client made
            // without configuration(connectTimeout:)) opens when its wait ends.
            if let gate { _ = ContinueGate.claim(gate.marker) }
            var fields = HTTPFields()
            for (name, value) in response.headers {
                if let fieldName = HTTPField.Name(name) { fields.append(HTTPField(name: fieldName, value: value)) }
            }
            let status = HTTPResponse.Status(code: Int(response.status.code), reasonPhrase: response.status.reasonPhrase)
            return StreamedResponse(
                head: HTTPResponse(status: status, headerFields: fields),
                body: ResponseBody(ResponseChunks(body: response.body, request: request, deadline: deadline)),
                protocolVersion: response.version.major >= 2 ? "HTTP/\(response.version.major)" : "HTTP/\(response.version.major).\(response.version.minor)"
            )
        } catch {
            gate?.gate.abandon()
            // Which check failed, the issuer or the dates, is learnt from the
            // certificate itself (reached directly only: through a proxy the
            // probe would need a tunnel of its own), within what is left of
            // the request's timeout.
            let left = request.timeout.map { $0 - (ContinuousClock.now - started) } ?? .seconds(5)
            if proxy == nil, left > .zero, Self.isUnverifiedCertificate(error), let host = url.host {
                let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
                if let finding = await CertificateProbe.check(host: host, port: port, within: min(left, .seconds(5)), on: client.eventLoopGroup) {
                    throw RequestError(
                        code: .untrustedCertificate,
                        description: "\(request.describedTarget): \(Self.untrustedCertificate(finding, host: request.head.authority ?? host, rootsFile: routes?.rootsFile))",
                        underlying: error
                    )
                }
            }
            // Through a proxy, AsyncHTTPClient reports a proxy that closes on
            // CONNECT as a target that closes, and one that never answers
            // CONNECT as one that cannot be reached. Asking the proxy for a
            // tunnel again tells which.
            if let proxy, left > .zero, let failure = error as? HTTPClientError,
               failure == .remoteConnectionClosed || failure == .connectTimeout, let target = Self.tunnelTarget(url) {
                switch await ProxyTunnelProbe.check(proxy, target: target, within: min(left, .seconds(2)), on: client.eventLoopGroup) {
                case .closed:
                    throw RequestError.transport(request, "proxy \(proxy.authority) closed the connection instead of opening a tunnel to \(target)", underlying: error)
                case .noAnswer:
                    throw RequestError.transport(request, "proxy \(proxy.authority) did not answer the request for a tunnel to \(target)", underlying: error)
                case .answered, nil:
                    break
                }
            }
            throw Self.requestError(for: error, request: request, proxy: proxy, rootsFile: routes?.rootsFile)
        }
    }

    /// `host:port` as a `CONNECT` names the target of `url`.
    private static func tunnelTarget(_ url: URL) -> String? {
        guard let host = url.host(percentEncoded: false) else { return nil }
        let port = url.port ?? (url.scheme?.lowercased() == "http" ? 80 : 443)
        return host.contains(":" as Character) ? "[\(host)]:\(port)" : "\(host):\(port)"
    }

    /// Gives every failure the request layer's one error type.
    /// `headArrived`: the error came while the response body was read.
    /// `rootsFile`: the file of the only trusted roots, when the user gave one.
    static func requestError(
        for error: any Error,
        request: PreparedRequest,
        proxy: ProxyServer? = nil,
        rootsFile: String? = nil,
        headArrived: Bool = false
    ) -> RequestError {
        if let proxy, let failure = proxyFailure(error, proxy: proxy, request: request) {
            return failure
        }
        if let failure = tlsFailure(error, request: request, rootsFile: rootsFile) {
            return failure
        }
        if proxy == nil, let failure = connectFailure(error, request: request) {
            return failure
        }
        switch error {
        case let error as RequestError:
            return error
        case is CancellationError:
            return .cancelled(request)
        case let error as BodySourceError:
            return .body(request, "\(error.underlying)", underlying: error.underlying)
        case let error as InvalidResponseStatusError:
            return .transport(request, error.description, underlying: error)
        case let error as HTTPParserError:
            // `unknown` is the parser's word for "no more precise reason".
            let detail = error == .unknown ? "" : " (\(error))"
            return .transport(request, "the server's response is not valid HTTP/1.1\(detail)", underlying: error)
        case let error as HTTPClientError:
            switch error {
            case .cancelled:
                return .cancelled(request)
            case .deadlineExceeded:
                return .timedOut(request, after: request.timeout, underlying: error)
            case .readTimeout, .writeTimeout, .connectTimeout:
                // The client's own limits, not the request's timeout.
                return .timedOut(request, after: nil, underlying: error)
            case .remoteConnectionClosed:
                let when = headArrived ? "before the response body ended" : "without answering"
                return .transport(request, "the server closed the connection \(when)", underlying: error)
            default:
                return .transport(request, "\(error)", underlying: error)
            }
        case _ where isUnknownHost(error):
            let host = request.url?.host(percentEncoded: false) ?? request.head.authority ?? ""
            return RequestError(code: .unknownHost, description: "\(request.describedTarget): \(TransportFailureText.unresolvable(host))", underlying: error)
        case let error as IOError:
            // NIO's own description ("connection reset (error set): ...") reads
            // as noise to a user; the system's sentence says what happened.
            return .transport(request, SystemErrorText.describe(error.errnoCode), underlying: error)
        default:
            return .transport(request, "\(error)", underlying: error)
        }
    }
}
