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

    @Test func socksProxiesAreReadAsCurlReadsThem() throws {
        #expect(try ProxyServer(url: "socks5://p:9050") == ProxyServer(host: "p", port: 9050, kind: .socks5))
        #expect(try ProxyServer(url: "SOCKS5H://p") == ProxyServer(host: "p", port: 1080, kind: .socks5h))
        #expect(try ProxyServer(url: "socks5h://u:secret@p:1").description == "socks5h://u:***@p:1")
    }

    @Test func anUnusableVariableStopsOnlyTheRequestsItWouldRoute() throws {
        let settings = try ProxySettings.fromEnvironment(["https_proxy": "https://user:secret@p:1080", "http_proxy": "q:2", "no_proxy": "skip.example"])
        #expect(!settings.isDirect)
        #expect(try settings.route(scheme: "http", host: "remote") == ProxyServer(host: "q", port: 2))
        #expect(try settings.route(scheme: "https", host: "api.skip.example") == nil)
        #expect {
            try settings.route(scheme: "https", host: "remote")
        } throws: { error in
            (error as? RequestError)?.description == "https_proxy: proxy https://user:***@p:1080: only http://, socks5:// and socks5h:// proxies are supported, not https://"
        }
        #expect(throws: RequestError.self) { try ProxyServer(url: "http://p:70000") }
        #expect(try ProxySettings.fromEnvironment([:]).isDirect)
    }

    @Test func noProxyTakesCIDRBlocksAsCurlDoes() {
        let list = NoProxyList("127.0.0.0/8, 10.1.0.0/16,fd00::/8, 192.168.1.7/32")
        #expect(list.matches(host: "127.0.0.1"))
        #expect(list.matches(host: "127.255.3.4"))
        #expect(!list.matches(host: "128.0.0.1"))
        #expect(list.matches(host: "10.1.200.3"))
        #expect(!list.matches(host: "10.2.0.1"))
        #expect(list.matches(host: "[fd12::1]"))
        #expect(!list.matches(host: "fe80::1"))
        #expect(list.matches(host: "192.168.1.7"))
        #expect(!list.matches(host: "192.168.1.8"))
        // A name is never resolved to be matched, as curl never resolves it.
        #expect(!list.matches(host: "localhost"))
        #expect(!NoProxyList("10.0.0.0/33").matches(host: "10.0.0.1"))
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
