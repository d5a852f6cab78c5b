import RequestBuilder
import Testing

/// The environment read exactly as curl reads it (issue #27), and
/// `no_proxy` matched as curl matches it.
@Suite struct ProxySettingsTests {
    @Test func httpProxyIsReadInLowerCaseOnly() throws {
        #expect(try ProxySettings.fromEnvironment(["HTTP_PROXY": "http://p:1"]).httpProxy == nil)
        #expect(try ProxySettings.fromEnvironment(["http_proxy": "http://p:1"]).httpProxy == ProxyServer(host: "p", port: 1))
        #expect(try ProxySettings.fromEnvironment(["http_proxy": "http://p:1"]).httpsProxy == nil)
    }

    @Test func httpsProxyInEitherCaseLowerFirst() throws {
        #expect(try ProxySettings.fromEnvironment(["HTTPS_PROXY": "u:3"]).httpsProxy == ProxyServer(host: "u", port: 3))
        #expect(try ProxySettings.fromEnvironment(["https_proxy": "l:2", "HTTPS_PROXY": "u:3"]).httpsProxy == ProxyServer(host: "l", port: 2))
    }

    @Test func allProxyFillsEitherSchemeWithoutItsOwn() throws {
        let settings = try ProxySettings.fromEnvironment(["ALL_PROXY": "a:4", "https_proxy": "s:5"])
        #expect(settings.httpProxy == ProxyServer(host: "a", port: 4))
        #expect(settings.httpsProxy == ProxyServer(host: "s", port: 5))
        #expect(try ProxySettings.fromEnvironment(["all_proxy": "l:1", "ALL_PROXY": "u:2"]).httpProxy == ProxyServer(host: "l", port: 1))
        #expect(try ProxySettings.fromEnvironment(["all_proxy": ""]) == .direct)
    }

    @Test func aProxyURLAsCurlReadsIt() throws {
        #expect(try ProxyServer(url: "proxy.internal") == ProxyServer(host: "proxy.internal", port: 1080))
        let withCredentials = try ProxyServer(url: "http://us%40r:p%3Ass@[::1]:3128")
        #expect(withCredentials == ProxyServer(host: "::1", port: 3128, username: "us@r", password: "p:ss"))
        #expect(withCredentials.description == "http://us@r:***@[::1]:3128")
        #expect(withCredentials.authority == "[::1]:3128")
    }

    @Test func aBadProxyNamesTheVariableAndHidesThePassword() {
        #expect {
            try ProxySettings.fromEnvironment(["https_proxy": "socks5://user:secret@p:1080"])
        } throws: { error in
            (error as? RequestError)?.description == "https_proxy: proxy socks5://user:***@p:1080: only http:// proxies are supported, not socks5://"
        }
        #expect(throws: RequestError.self) { try ProxyServer(url: "http://p:70000") }
    }

    @Test func noProxyMatchesHostsDomainsAddressesAndStar() throws {
        let list = NoProxyList(" .Example.com,internal:8080, 10.0.0.1 ,[::1]")
        #expect(list.matches(host: "example.com"))
        #expect(list.matches(host: "api.EXAMPLE.com."))
        #expect(!list.matches(host: "notexample.com"))
        #expect(list.matches(host: "internal"))
        #expect(list.matches(host: "10.0.0.1"))
        #expect(!list.matches(host: "10.0.0.10"))
        #expect(list.matches(host: "[::1]"))
        #expect(NoProxyList("*").matches(host: "anything"))
        #expect(!NoProxyList("").matches(host: "anything"))
    }

    @Test func noProxyDecidesPerRequest() throws {
        let settings = try ProxySettings.fromEnvironment(["https_proxy": "p:1", "http_proxy": "q:2", "no_proxy": "local"])
        #expect(settings.proxy(scheme: "https", host: "a.local") == nil)
        #expect(settings.proxy(scheme: "https", host: "remote") == ProxyServer(host: "p", port: 1))
        #expect(settings.proxy(scheme: "http", host: "remote") == ProxyServer(host: "q", port: 2))
        #expect(try ProxySettings.fromEnvironment(["no_proxy": "x", "NO_PROXY": "y"]).noProxy == NoProxyList("x"))
    }
}
