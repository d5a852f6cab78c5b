import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import NIOCore
import NIOPosix
import NIOSSL
import RequestBuilder

extension AsyncHTTPClientTransport {
    /// A failure of the proxy itself, as a sentence naming the proxy rather
    /// than the target; `nil` for other failures. Through a proxy, the only
    /// connection made is to the proxy, so failing to connect is the proxy's.
    static func proxyFailure(_ error: any Error, proxy: ProxyServer, request: PreparedRequest) -> RequestError? {
        let target = request.head.authority ?? ""
        let what: String
        switch error {
        case let error as HTTPClientError where error == .proxyAuthenticationRequired:
            what = "proxy \(proxy.authority) asks for credentials (407 Proxy Authentication Required): give them in the proxy URL (http://user:password@\(proxy.authority))"
        case let error as HTTPClientError where error == .invalidProxyResponse:
            what = "proxy \(proxy.authority) refused to open a tunnel to \(target)"
        case let error as HTTPClientError where error == .httpProxyHandshakeTimeout:
            what = "proxy \(proxy.authority) did not answer the request for a tunnel to \(target)"
        case let error as HTTPClientError where error == .connectTimeout:
            what = "proxy \(proxy.authority) cannot be reached: connecting timed out"
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                what = "proxy \(proxy.authority) cannot be reached: its name does not resolve"
            } else {
                what = proxyConnectFailure(error.connectionErrors.first?.error, proxy: proxy)
            }
        case let error as IOError:
            guard [ECONNREFUSED, EHOSTUNREACH, ENETUNREACH, ETIMEDOUT].contains(error.errnoCode) else { return nil }
            what = proxyConnectFailure(error, proxy: proxy)
        default:
            return nil
        }
        return .transport(request, what, underlying: error)
    }

    private static func proxyConnectFailure(_ error: (any Error)?, proxy: ProxyServer) -> String {
        guard let error = error as? IOError else { return "proxy \(proxy.authority) cannot be reached" }
        if error.errnoCode == ECONNREFUSED { return "proxy \(proxy.authority) refused the connection" }
        return "proxy \(proxy.authority) cannot be reached: \(SystemErrorText.describe(error.errnoCode))"
    }

    /// A failed TLS handshake as a sentence naming the host and what helps;
    /// `nil` for other failures. BoringSSL's error queue is a build path and
    /// a code, never shown.
    static func tlsFailure(_ error: any Error, request: PreparedRequest) -> RequestError? {
        let host = request.head.authority ?? ""
        let what: String
        switch error {
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            what = "the server's certificate for \(host) was issued for another name (not \(request.url?.host ?? host)): use the name the certificate was issued for"
        case let error as NIOSSLError:
            switch error {
            case .handshakeFailed(let boringSSLError):
                let text = "\(boringSSLError)"
                if text.contains("CERTIFICATE_VERIFY_FAILED") {
                    what = "the server's certificate for \(host) is not trusted (self-signed or unknown issuer, or expired): pass --cacert FILE"
                } else if text.contains("CERTIFICATE_REQUIRED") || text.contains("HANDSHAKE_FAILURE") {
                    what = "the TLS handshake with \(host) failed: the server may require a client certificate (--cert FILE --key FILE)"
                } else if text.contains("WRONG_VERSION_NUMBER") {
                    what = "\(host) does not speak TLS: use http:// for it"
                } else {
                    what = "the TLS handshake with \(host) failed"
                }
            case .uncleanShutdown:
                what = "\(host) closed the TLS connection without saying so"
            default:
                what = "the TLS handshake with \(host) failed"
            }
        default:
            return nil
        }
        return .transport(request, what, underlying: error)
    }
}
