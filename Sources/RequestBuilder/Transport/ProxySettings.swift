public import Foundation

/// Which proxy, if any, a request goes through: one for `http://` targets,
/// one for `https://` targets, and the hosts that bypass both.
///
/// ```swift
/// var proxies = ProxySettings.fromEnvironment()     // as curl reads it
/// proxies = .all(try ProxyServer(url: "http://user:pw@proxy.internal:3128"),
///                except: proxies.noProxy)           // --proxy, keeping no_proxy
/// ```
public struct ProxySettings: Sendable, Hashable {
    /// The proxy for `http://` targets, if any (`AsyncHTTPClientTransport`
    /// reaches them through a `CONNECT` tunnel too, never in absolute form).
    public var httpProxy: ProxyServer?
    /// The proxy for `https://` targets (through `CONNECT`), if any.
    public var httpsProxy: ProxyServer?
    /// The hosts reached directly.
    public var noProxy: NoProxyList

    /// Creates settings.
    ///
    /// - Parameters:
    ///   - httpProxy: The proxy for `http://` targets.
    ///   - httpsProxy: The proxy for `https://` targets.
    ///   - noProxy: The hosts that bypass both.
    public init(httpProxy: ProxyServer? = nil, httpsProxy: ProxyServer? = nil, noProxy: NoProxyList = .empty) {
        self.httpProxy = httpProxy
        self.httpsProxy = httpsProxy
        self.noProxy = noProxy
    }

    /// No proxy: every request connects to its target.
    public static let direct = ProxySettings()

    /// One proxy for every target (curl's `--proxy`), except the hosts in `noProxy`.
    ///
    /// - Parameters:
    ///   - proxy: The proxy.
    ///   - noProxy: The hosts that bypass it.
    public static func all(_ proxy: ProxyServer, except noProxy: NoProxyList = .empty) -> ProxySettings {
        ProxySettings(httpProxy: proxy, httpsProxy: proxy, noProxy: noProxy)
    }

    /// The settings exactly as curl reads the environment: `http_proxy`
    /// (lower case only, as a CGI server may set `HTTP_PROXY` from a request
    /// header), `https_proxy` then `HTTPS_PROXY`, `all_proxy` then
    /// `ALL_PROXY` for either scheme without its own, and `no_proxy` then
    /// `NO_PROXY`. Empty variables count as unset.
    ///
    /// - Parameter environment: The variables to read; the process's by default.
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) naming
    ///   the variable whose URL is not an `http://` proxy URL.
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ProxySettings {
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name].map({ String($0.trimmingOptionalWhitespace) }), !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func server(_ variable: (name: String, value: String)?) throws -> ProxyServer? {
            guard let variable else { return nil }
            do {
                return try ProxyServer(url: variable.value)
            } catch let error as RequestError {
                throw RequestError.invalidRequest("\(variable.name): \(error.description)")
            }
        }
        let all = value("all_proxy", "ALL_PROXY")
        return ProxySettings(
            httpProxy: try server(value("http_proxy") ?? all),
            httpsProxy: try server(value("https_proxy", "HTTPS_PROXY") ?? all),
            noProxy: NoProxyList(value("no_proxy", "NO_PROXY")?.value ?? "")
        )
    }

    /// The proxy a request to `scheme://host` goes through, or `nil` to
    /// connect directly.
    ///
    /// - Parameters:
    ///   - scheme: The target's scheme, `http` or `https`.
    ///   - host: The target's host.
    public func proxy(scheme: String, host: String) -> ProxyServer? {
        let proxy = scheme.lowercased() == "https" ? httpsProxy : httpProxy
        guard let proxy, !noProxy.matches(host: host) else { return nil }
        return proxy
    }
}
