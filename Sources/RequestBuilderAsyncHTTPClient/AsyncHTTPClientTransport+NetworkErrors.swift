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
        var code = RequestError.Code.transport
        switch error {
        case let error as HTTPClientError where error == .proxyAuthenticationRequired:
            code = .proxyAuthenticationRequired
            what = proxy.username == nil
                ? "proxy \(proxy.authority) asks for credentials (407 Proxy Authentication Required): give them in the proxy URL (http://user:password@\(proxy.authority))"
                : "proxy \(proxy.authority) refused the credentials given for it (407 Proxy Authentication Required): check the user name and password"
        case let error as HTTPClientError where error == .invalidProxyResponse:
            what = "proxy \(proxy.authority) refused to open a tunnel to \(target)"
        case let error as HTTPClientError where error == .httpProxyHandshakeTimeout:
            what = "proxy \(proxy.authority) did not answer the request for a tunnel to \(target)"
        case let error as HTTPClientError where error == .connectTimeout:
            what = "proxy \(proxy.authority) cannot be reached: connecting timed out"
        case let error as NIOConnectionError:
            if error.dnsAError != nil || error.dnsAAAAError != nil {
                if isUnknownHost(error) { code = .unknownHost }
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
        return RequestError(code: code, description: "\(request.describedTarget): \(what)", underlying: error)
    }

    /// A failure to reach the target itself (no proxy in between): its name
    /// does not resolve (``RequestError/Code/unknownHost`` when the resolver
    /// said there is no such name, which no retry changes), or nothing
    /// accepts the connection. `nil` for other failures, whose own sentence
    /// stands.
    static func connectFailure(_ error: any Error, request: PreparedRequest) -> RequestError? {
        let authority = request.head.authority ?? ""
        let host = request.url?.host(percentEncoded: false) ?? authority
        let what: String
        switch error {
        case let error as NIOConnectionError:
            if let first = error.connectionErrors.first?.error {
                guard let reason = connectFailure(first, authority: authority) else { return nil }
                what = reason
            } else if error.dnsAError != nil || error.dnsAAAAError != nil {
                what = TransportFailureText.unresolvable(host)
            } else {
                return nil
            }
        case is SocketAddressError:
            what = TransportFailureText.unresolvable(host)
        default:
            guard let reason = connectFailure(error, authority: authority) else { return nil }
            what = reason
        }
        let code: RequestError.Code = isUnknownHost(error) ? .unknownHost : .transport
        return RequestError(code: code, description: "\(request.describedTarget): \(what)", underlying: error)
    }

    private static func connectFailure(_ error: any Error, authority: String) -> String? {
        guard let error = error as? IOError else { return nil }
        switch error.errnoCode {
        case ECONNREFUSED: return TransportFailureText.refused(authority)
        case EHOSTUNREACH, ENETUNREACH: return "cannot connect to \(authority): \(SystemErrorText.describe(error.errnoCode))"
        default: return nil
        }
    }

    private static func proxyConnectFailure(_ error: (any Error)?, proxy: ProxyServer) -> String {
        guard let error = error as? IOError else { return "proxy \(proxy.authority) cannot be reached" }
        if error.errnoCode == ECONNREFUSED { return "proxy \(proxy.authority) refused the connection" }
        return "proxy \(proxy.authority) cannot be reached: \(SystemErrorText.describe(error.errnoCode))"
    }

    /// A failed TLS handshake as a sentence naming the host and what helps;
    /// `nil` for other failures. BoringSSL's error queue is a build path and
    /// a code, never shown.
    /// `rootsFile`: the file of the only trusted roots, when the user gave one.
    static func tlsFailure(_ error: any Error, request: PreparedRequest, rootsFile: String?) -> RequestError? {
        let host = request.head.authority ?? ""
        let what: String
        let code: RequestError.Code = isUnverifiedCertificate(error) ? .untrustedCertificate : .transport
        switch error {
        case let error as NIOSSLExtraError where error == .failedToValidateHostname:
            return RequestError(
                code: .untrustedCertificate,
                description: "\(request.describedTarget): the server's certificate for \(host) was issued for another name (not \(request.url?.host ?? host)): use the name the certificate was issued for",
                underlying: error
            )
        case let error as NIOSSLError:
            switch error {
            case .handshakeFailed(let boringSSLError):
                what = handshakeFailure(boringSSLError, host: host, rootsFile: rootsFile)
            case .uncleanShutdown:
                what = "\(host) closed the TLS connection without saying so"
            default:
                what = "the TLS handshake with \(host) failed"
            }
        case let error as BoringSSLError:
            // An alert from the server after the handshake (a client
            // certificate it requires) arrives bare, not as handshakeFailed.
            what = handshakeFailure(error, host: host, rootsFile: rootsFile)
        default:
            return nil
        }
        return RequestError(code: code, description: "\(request.describedTarget): \(what)", underlying: error)
    }

    /// Whether the name lookup answered that the host does not exist
    /// (`EAI_NONAME`), as against a lookup that could not be made (no
    /// answer from the resolver), which may pass.
    static func isUnknownHost(_ error: any Error) -> Bool {
        switch error {
        case let error as SocketAddressError.UnknownHost:
            return error.errorCode == Int(EAI_NONAME)
        case let error as NIOConnectionError:
            let lookups = [error.dnsAError, error.dnsAAAAError].compactMap { $0 }
            return error.connectionErrors.isEmpty && !lookups.isEmpty && lookups.allSatisfy(isUnknownHost)
        default:
            return false
        }
    }

    /// Whether the handshake failed because the server's certificate did
    /// not verify (an unknown issuer, or dates that do not hold).
    static func isUnverifiedCertificate(_ error: any Error) -> Bool {
        switch error {
        case let error as NIOSSLError:
            if case .handshakeFailed(let boringSSLError) = error { return "\(boringSSLError)".firstRange(of: "CERTIFICATE_VERIFY_FAILED") != nil }
            return false
        case let error as BoringSSLError:
            return "\(error)".firstRange(of: "CERTIFICATE_VERIFY_FAILED") != nil
        default:
            return false
        }
    }

    /// A certificate that did not verify, as a sentence saying why, from
    /// what ``CertificateProbe`` read of it.
    static func untrustedCertificate(_ finding: CertificateProbe.Finding, host: String, rootsFile: String?) -> String {
        switch finding {
        case .expired(let date):
            return "the server's certificate for \(host) expired on \(CertificateProbe.describe(date)): the server must renew it \(TransportFailureText.skipVerification)"
        case .notYetValid(let date):
            return "the server's certificate for \(host) is not valid until \(CertificateProbe.describe(date)): check this computer's clock \(TransportFailureText.skipVerification)"
        case .currentDates:
            return TransportFailureText.untrustedCertificate(host, rootsFile: rootsFile)
        }
    }

    /// BoringSSL's error queue as a sentence: its reason names (never shown)
    /// say what happened.
    private static func handshakeFailure(_ error: BoringSSLError, host: String, rootsFile: String?) -> String {
        let text = "\(error)"
        if text.firstRange(of: "CERTIFICATE_VERIFY_FAILED") != nil {
            // BoringSSL's queue does not say which check failed: an unknown
            // issuer and an expired certificate read the same here.
            return TransportFailureText.untrustedCertificate(host, rootsFile: rootsFile, orExpired: true)
        }
        if text.firstRange(of: "CERTIFICATE_REQUIRED") != nil {
            return TransportFailureText.clientCertificateRequired(host)
        }
        if text.firstRange(of: "WRONG_VERSION_NUMBER") != nil {
            return "\(host) does not speak TLS: use http:// for it"
        }
        if text.firstRange(of: "ALERT") != nil {
            return "the server at \(host) ended the TLS handshake with an alert (it may refuse the client certificate or the TLS version)"
        }
        return "the TLS handshake with \(host) failed"
    }
}
