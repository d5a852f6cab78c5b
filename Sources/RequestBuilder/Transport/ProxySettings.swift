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
    /// The proxy for `http://` targets, if any (an HTTP proxy gets their
    /// requests in absolute form, as curl sends them).
    public var httpProxy: ProxyServer?
    /// The proxy for `https://` targets (through `CONNECT`), if any.
    public var httpsProxy: ProxyServer?
    /// The hosts reached directly.
    public var noProxy: NoProxyList
    /// For a scheme (`http`, `https`) whose variable names no usable proxy,
    /// why: the requests it would route fail with that, and no other.
    private var unusable: [String: String] = [:]

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
    /// A variable whose value is not a usable proxy URL (`https_proxy=
    /// https://…`, a bad port) stops only the requests it would route, as
    /// curl stops only those: ``route(scheme:host:)`` throws for them, and
    /// requests of the other scheme, or to hosts in `no_proxy`, go on.
    ///
    /// - Parameter environment: The variables to read; the process's by default.
    /// - Throws: Nothing the values cause (it is declared throwing so that
    ///   callers written when it was need no change).
    public static func fromEnvironment(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> ProxySettings {
        func value(_ names: String...) -> (name: String, value: String)? {
            for name in names {
                if let value = environment[name].map({ String($0.trimmingOptionalWhitespace) }), !value.isEmpty { return (name, value) }
            }
            return nil
        }
        func server(_ variable: (name: String, value: String)?) throws(RequestError) -> ProxyServer? {
            guard let variable else { return nil }
            do {
                return try ProxyServer(url: variable.value)
            } catch let error as RequestError {
                throw RequestError.invalidRequest("\(variable.name): \(error.description)")
            } catch {
                throw RequestError.invalidRequest("\(variable.name): \(error)")
            }
        }
        let all = value("all_proxy", "ALL_PROXY")
        var settings = ProxySettings(noProxy: NoProxyList(value("no_proxy", "NO_PROXY")?.value ?? ""))
        for (scheme, variable) in [("http", value("http_proxy") ?? all), ("https", value("https_proxy", "HTTPS_PROXY") ?? all)] {
            do {
                let proxy = try server(variable)
                if scheme == "http" { settings.httpProxy = proxy } else { settings.httpsProxy = proxy }
            } catch {
                settings.unusable[scheme] = error.description
            }
        }
        return settings
    }

    /// Whether every request connects to its target: no proxy, and no
    /// variable naming one that cannot be used.
    public var isDirect: Bool {
        httpProxy == nil && httpsProxy == nil && unusable.isEmpty
    }

    /// The proxy a request to `scheme://host` goes through, or `nil` to
    /// connect directly; an error when the variable for that scheme names
    /// no usable proxy and `host` is not in ``noProxy``.
    ///
    /// - Parameters:
    ///   - scheme: The target's scheme, `http` or `https`.
    ///   - host: The target's host.
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``)
    ///   naming the variable and what is wrong with its value.
    public func route(scheme: String, host: String) throws(RequestError) -> ProxyServer? {
        let scheme = scheme.lowercased() == "https" ? "https" : "http"
        if let problem = unusable[scheme], !noProxy.matches(host: host) {
            throw RequestError.invalidRequest(problem)
        }
        return proxy(scheme: scheme, host: host)
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
