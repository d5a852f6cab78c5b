import Foundation
import TestSupport
import Testing

/// The environment a user's shell already has, through the built binary
/// (contract, "The user's environment and habits (version 7)"): squid with
/// its stock configuration, proxy variables that do not apply, `no_proxy`
/// CIDR blocks, netrc files as curl reads them, one clock across redirects,
/// and a `Location` with escapes in it.
@Suite(.serialized) struct UploaderUserEnvironmentTests {
    static func run(_ arguments: [String], environment: [String: String] = [:], timeout: String = "600") async throws -> UploaderProcess.Result {
        try await UploaderProcess.run(
            arguments + ["--no-progress", "--timeout", timeout],
            environment: UploaderNetworkTests.clean.merging(environment) { $1 }
        )
    }

    // MARK: Proxies

    /// Stock squid refuses CONNECT to any port but 443; an http:// target
    /// goes in absolute form, with the proxy URL's credentials.
    @Test func anHTTPUploadGoesThroughStockSquidWithCredentials() async throws {
        let proxy = try await SquidProxy.start(credentials: "user:p@ss")
        defer { proxy.stop() }
        let server = try await TestHTTPServer.start()
        let result = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "--proxy", "http://user:p%40ss@127.0.0.1:\(proxy.port)"])
        let requests = server.requests
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(requests.count == 1 && requests.first?.uri == "/up" && requests.first?.bodyByteCount == 13)
        let log = try await proxy.accessLog(atLeast: 1)
        #expect(log.contains { $0.contains("TCP_MISS/200") && $0.contains("POST http://127.0.0.1:\(server.port)/up user ") }, "\(log)")
    }

    /// socks5h:// and socks5:// proxies, from --proxy and from all_proxy;
    /// the proxy is handed the target's name.
    @Test func uploadsGoThroughSOCKS5Proxies() async throws {
        let proxy = try await SOCKSProxy.start()
        defer { proxy.stop() }
        let server = try await TestHTTPServer.start()
        let url = "http://localhost:\(server.port)/up"
        let given = try await Self.run([url, "note=hi", "--proxy", "socks5h://127.0.0.1:\(proxy.port)"])
        let fromEnvironment = try await Self.run([url, "note=hi"], environment: ["ALL_PROXY": "socks5://127.0.0.1:\(proxy.port)"])
        let requests = server.requests
        try await server.stop()
        #expect(given.status == 0 && fromEnvironment.status == 0, "\(given.standardError)\(fromEnvironment.standardError)")
        #expect(requests.count == 2)
        #expect(proxy.connects() == Array(repeating: "CONNECT domain localhost \(server.port)", count: 2))
    }

    /// A proxy variable that cannot be used, or that no_proxy (a CIDR
    /// block here) excludes, never stops a request it does not apply to.
    @Test func aProxySettingThatDoesNotApplyNeverStopsARequest() async throws {
        let server = try await TestHTTPServer.start()
        let closed = try UploaderNetworkTests.closedPort()
        let url = server.url(path: "/up").absoluteString
        let unusableHTTPS = try await Self.run([url, "note=hi"], environment: ["https_proxy": "https://u:secret@proxy.example:1"])
        let cidr = try await Self.run([url, "note=hi"], environment: ["http_proxy": "http://127.0.0.1:\(closed)", "no_proxy": "10.0.0.0/8,127.0.0.0/8"])
        let excludedAndUnusable = try await Self.run([url, "note=hi"], environment: ["http_proxy": "ftp://proxy.example", "NO_PROXY": "127.0.0.0/8"])
        let applies = try await Self.run([url, "note=hi"], environment: ["http_proxy": "ftp://u:secret@proxy.example"])
        let requests = server.requests
        try await server.stop()
        for result in [unusableHTTPS, cidr, excludedAndUnusable] {
            #expect(result.status == 0, "\(result.standardError)")
        }
        #expect(requests.count == 3)
        #expect(applies.status == 2, "\(applies.standardError)")
        #expect(applies.standardError == "uploader: http_proxy: proxy ftp://u:***@proxy.example: only http://, socks5:// and socks5h:// proxies are supported, not ftp://\n")
    }

    // MARK: netrc

    @Test func netrcIsReadAsCurlReadsIt() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let netrc = folder.appending(path: "netrc")
        try Data("""
            # a comment line: machine 127.0.0.1 login eve password x
            MACHINE 127.0.0.1 Login alice PASSWORD "p w"
              # login bob password old
            macdef init
            machine 127.0.0.1 login mallory password macro

            default login anyone password anything

            """.utf8).write(to: netrc)
        let server = try await TestHTTPServer.start()
        let url = server.url(path: "/up").absoluteString
        let file = try await Self.run([url, "note=hi", "--netrc-file", netrc.path])
        let missing = try await Self.run([url, "note=hi", "--netrc-file", folder.appending(path: "none").path])
        let optional = try await Self.run([url, "note=hi", "--netrc-file", folder.appending(path: "none").path, "--netrc-optional"])
        let fromHome = try await Self.run([url, "note=hi", "--netrc-optional"], environment: ["NETRC": netrc.path])
        let requests = server.requests
        try await server.stop()
        #expect(file.status == 0 && optional.status == 0 && fromHome.status == 0, "\(file.standardError)\(optional.standardError)\(fromHome.standardError)")
        #expect(missing.status == 2)
        #expect(missing.standardError == "uploader: --netrc-file: the file \(folder.appending(path: "none").path) cannot be read: No such file or directory\n")
        let alice = "Basic " + Data("alice:p w".utf8).base64EncodedString()
        #expect(requests.map { $0.header("Authorization") } == [alice, nil, alice])
    }

    // MARK: Redirects

    /// -L --timeout 3 over a chain of slow hops stops at 3 s, as curl's
    /// --max-time does, not 3 s a hop.
    @Test func theTimeoutBoundsEveryRedirectHopTogether() async throws {
        let server = try await TestHTTPServer.start(script: .init { _, index in
            .status(307, headers: [("Location", "/hop\(index + 1)")], delay: .milliseconds(800))
        })
        let started = ContinuousClock.now
        let result = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "-L"], timeout: "3")
        let elapsed = ContinuousClock.now - started
        let hops = server.requests.count
        try await server.stop()
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.hasSuffix(": timed out after 3 seconds\n"), "\(result.standardError)")
        // Each hop takes 0.8 s: four at most fit in 3 s (fewer on a busy
        // machine), where a clock per hop would make all 31.
        #expect(hops <= 5, "\(hops) hops in \(elapsed)")
    }

    /// A Location with a raw space and escapes already in it is requested
    /// as curl and HTTPie request it: the space encoded, the escapes kept.
    @Test func aLocationsEscapesAreNotEncodedTwice() async throws {
        let server = try await TestHTTPServer.start(script: .init { request, _ in
            request.uri == "/up" ? .status(302, headers: [("Location", "/a b/%E2%9C%93?q=1%202")]) : .status(200)
        })
        let result = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "-L"])
        let uris = server.requests.map(\.uri)
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(uris == ["/up", "/a%20b/%E2%9C%93?q=1%202"])
    }
}

/// `Expect: 100-continue` through the built binary against nginx: a body
/// over 1 MiB waits for the server, so a refused 2 GiB upload sends none of
/// itself; `Expect:` with no value turns it off.
@Suite(.serialized) struct UploaderExpectContinueTests {
    @Test func aRefusedLargeUploadSendsNothingAndExpectColonTurnsItOff() async throws {
        let nginx = try await NginxServer.start()
        defer { nginx.stop() }
        let folder = FileManager.default.temporaryDirectory.appending(path: "expect-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let big = folder.appending(path: "big.bin")
        guard FileManager.default.createFile(atPath: big.path, contents: nil) else { throw CocoaError(.fileWriteUnknown) }
        let handle = try FileHandle(forWritingTo: big)
        try handle.truncate(atOffset: 2 * 1024 * 1024 * 1024)
        try handle.close()
        let three = folder.appending(path: "three.bin")
        try Data(repeating: 7, count: 3 * 1024 * 1024).write(to: three)
        // A TCP proxy in front of nginx counts every byte the refused uploads sent.
        let counter = try await FaultProxy.start(target: nginx.plainURL(path: "/"), cutAfter: nil)
        defer { counter.stop() }
        let tooLarge = try await UploaderUserEnvironmentTests.run(["PUT", counter.url(path: "/small/up.bin").absoluteString, "--data", "@\(big.path)"])
        let unauthorized = try await UploaderUserEnvironmentTests.run(["PUT", counter.url(path: "/private/up.bin").absoluteString, "--data", "@\(big.path)"])
        let sent = try await counter.stats()
        let accepted = try await UploaderUserEnvironmentTests.run(["PUT", nginx.plainURL(path: "/dav/three.bin").absoluteString, "--data", "@\(three.path)", "-v"])
        let off = try await UploaderUserEnvironmentTests.run(["PUT", nginx.plainURL(path: "/dav/off.bin").absoluteString, "--data", "@\(three.path)", "Expect:"])
        #expect(tooLarge.status == 4 && unauthorized.status == 4, "\(tooLarge.standardError)\(unauthorized.standardError)")
        #expect(accepted.status == 0 && off.status == 0, "\(accepted.standardError)\(off.standardError)")
        #expect(accepted.standardError.contains("Expect: 100-continue\r\n") || accepted.standardError.contains("Expect: 100-continue\n"), "\(accepted.standardError)")
        let log = try await nginx.accessLog(atLeast: 4)
        #expect(log.map(\.status) == [413, 401, 201, 201], "\(log)")
        #expect(log.map(\.expect) == ["100-continue", "100-continue", "100-continue", nil], "\(log)")
        #expect(log.prefix(2).allSatisfy { $0.length < 1024 }, "\(log)")
        // Two heads, none of the 4 GiB of bodies.
        #expect(sent.connections == 2 && sent.clientToServerBytes < 2048, "\(sent.clientToServerBytes) bytes sent")
        #expect(nginx.storedSize("three.bin") == 3 * 1024 * 1024 && nginx.storedSize("off.bin") == 3 * 1024 * 1024)
    }
}
