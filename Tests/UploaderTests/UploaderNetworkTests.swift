import Foundation
import TestSupport
import Testing

/// The command line's network options (contract, "The real network
/// (version 6)"; issue #27) through the built binary against real servers:
/// a TLS server with a private CA made at its start (tls_server.py), a
/// forward proxy (proxy.py), and the recording server for credentials.
/// Before, none of these options existed ("Unknown option"), the
/// environment's proxies were ignored, and an expired certificate read as
/// an unknown issuer.
@Suite(.serialized) struct UploaderNetworkTests {
    /// No proxy or trust store of the machine running the tests is used
    /// unless a test sets one.
    static let clean: [String: String] = [
        "SSL_CERT_FILE": "", "SSL_CERT_DIR": "", "http_proxy": "", "https_proxy": "", "HTTPS_PROXY": "",
        "all_proxy": "", "ALL_PROXY": "", "no_proxy": "", "NO_PROXY": "", "NETRC": "",
    ]

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> UploaderProcess.Result {
        try await UploaderProcess.run(arguments + ["--no-progress", "--timeout", "600"], environment: clean.merging(environment) { $1 })
    }

    /// A port on 127.0.0.1 that refuses connections for the rest of the run.
    static func closedPort() throws -> Int {
        try RefusingPort.heldUntilExit()
    }

    // MARK: TLS trust

    @Test func cacertTrustsThePrivateCAAndNothingElseDoes() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let authority = "127.0.0.1:\(server.port)"

        let refused = try await Self.run([server.url(path: "/up").absoluteString, "note=hi"])
        #expect(refused.status == 3)
        #expect(refused.standardError == "uploader: POST https://\(authority)/up: the server's certificate for \(authority) is not trusted (self-signed or unknown issuer): pass --cacert FILE\n")
        #expect(try server.requests().isEmpty)

        let trusted = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "--cacert", server.file("ca.pem")])
        #expect(trusted.status == 0, "\(trusted.standardError)")
        let fromEnvironment = try await Self.run([server.url(path: "/env").absoluteString, "note=hi"], environment: ["SSL_CERT_FILE": server.file("ca.pem")])
        #expect(fromEnvironment.status == 0, "\(fromEnvironment.standardError)")
        #expect(try server.requests() == [
            .init(method: "POST", path: "/up", bytes: 13, client: nil), .init(method: "POST", path: "/env", bytes: 13, client: nil),
        ])
    }

    /// A refused connection and a name that does not resolve are one
    /// sentence naming the cause, never a library's type.
    @Test func aRefusedConnectionAndAnUnknownHostSayWhatHappened() async throws {
        let port = try Self.closedPort()
        let refused = try await Self.run(["http://127.0.0.1:\(port)/up", "note=hi"])
        #expect(refused.status == 3)
        #expect(refused.standardError == "uploader: POST http://127.0.0.1:\(port)/up: 127.0.0.1:\(port) refused the connection (no server listens there)\n")
        // `.invalid` never resolves (RFC 6761, section 6.4).
        let unknown = try await Self.run(["http://no-such-host.invalid/up", "note=hi"])
        #expect(unknown.status == 3)
        #expect(unknown.standardError == "uploader: POST http://no-such-host.invalid/up: the host name no-such-host.invalid does not resolve to an address\n")
    }

    /// A `--cacert` that does not vouch for the server: the message names
    /// the file given, and does not ask for a `--cacert` already there.
    @Test func aCacertThatDoesNotVouchForTheServerIsNamed() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let other = try await TLSTestServer.start()
        defer { other.stop() }
        let authority = "127.0.0.1:\(server.port)"
        let refused = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "--cacert", other.file("ca.pem")])
        #expect(refused.status == 3)
        #expect(refused.standardError == "uploader: POST https://\(authority)/up: the server's certificate for \(authority) is not trusted by the roots in \(other.file("ca.pem")) (self-signed or unknown issuer)\n")
        #expect(try server.requests().isEmpty)
    }

    /// The environment's trust locations matter to https:// requests only,
    /// as they do to OpenSSL's users: one that cannot be used is bad input
    /// naming it for an https:// upload, with nothing sent, and never
    /// stops a plain http:// upload. `-k` needs no roots, so it goes on.
    @Test func anUnusableTrustVariableStopsHTTPSRequestsOnly() async throws {
        let plain = try await TestHTTPServer.start()
        let tls = try await TLSTestServer.start()
        defer { tls.stop() }
        let notACertificate = FileManager.default.temporaryDirectory.appending(path: "not-a-ca-\(UUID().uuidString).txt")
        try Data("just words\n".utf8).write(to: notACertificate)
        defer { try? FileManager.default.removeItem(at: notACertificate) }
        let missing = "/nonexistent/ca-\(UUID().uuidString).pem"
        let cases: [([String: String], String)] = [
            (["SSL_CERT_FILE": missing], "cannot read the CA certificate file (SSL_CERT_FILE) \(missing): No such file or directory"),
            (["SSL_CERT_FILE": notACertificate.path], "the CA certificate file (SSL_CERT_FILE) \(notACertificate.path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
            (["SSL_CERT_DIR": missing], "the CA certificate directory \(missing) (SSL_CERT_DIR) is not a readable directory"),
            (["SSL_CERT_FILE": missing, "SSL_CERT_DIR": "/etc/ssl/certs"], "cannot read the CA certificate file (SSL_CERT_FILE) \(missing): No such file or directory"),
        ]
        for (variables, message) in cases {
            let http = try await Self.run(["127.0.0.1:\(plain.port)/up", "note=hi"], environment: variables)
            #expect(http.status == 0, "\(variables): \(http.standardError)")
            let https = try await Self.run([tls.url(path: "/up").absoluteString, "note=hi"], environment: variables)
            #expect(https.status == 2, "\(variables)")
            #expect(https.standardError == "uploader: \(message)\n")
            let insecure = try await Self.run([tls.url(path: "/k").absoluteString, "note=hi", "-k"], environment: variables)
            #expect(insecure.status == 0, "\(variables): \(insecure.standardError)")
        }
        try await plain.stop()
        #expect(plain.requests.count == cases.count)
        #expect(try tls.requests().map(\.path) == Array(repeating: "/k", count: cases.count))
    }

    /// Both variables set, as Debian, Nix and CI images set them: the PEM
    /// file and the hashed directory are both trusted, as OpenSSL trusts
    /// them; the directory alone is a hashed directory too. The system's
    /// store in both does not trust a private CA, and `-k` still goes.
    @Test func bothTrustVariablesAreTrustedAsOpenSSLTrustsThem() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let systemFile = "/etc/ssl/certs/ca-certificates.crt"
        let systemDirectory = "/etc/ssl/certs"
        let hashed = try server.hashedCADirectory()
        let trusted: [[String: String]] = [
            ["SSL_CERT_FILE": systemFile, "SSL_CERT_DIR": hashed],
            ["SSL_CERT_FILE": server.file("ca.pem"), "SSL_CERT_DIR": systemDirectory],
            ["SSL_CERT_DIR": hashed],
        ]
        for variables in trusted {
            let result = try await Self.run([server.url(path: "/up").absoluteString, "note=hi"], environment: variables)
            #expect(result.status == 0, "\(variables): \(result.standardError)")
        }
        let stock = ["SSL_CERT_FILE": systemFile, "SSL_CERT_DIR": systemDirectory]
        let untrusted = try await Self.run([server.url(path: "/no").absoluteString, "note=hi"], environment: stock)
        #expect(untrusted.status == 3)
        #expect(untrusted.standardError.contains("is not trusted (self-signed or unknown issuer)"), "\(untrusted.standardError)")
        let insecure = try await Self.run([server.url(path: "/k").absoluteString, "note=hi", "-k"], environment: stock)
        #expect(insecure.status == 0, "\(insecure.standardError)")
        let cacert = try await Self.run([server.url(path: "/cacert").absoluteString, "note=hi", "--cacert", server.file("ca.pem")], environment: stock)
        #expect(cacert.status == 0, "\(cacert.standardError)")
        #expect(try server.requests().map(\.path) == ["/up", "/up", "/up", "/k", "/cacert"])
    }

    /// The machine's own variables, whatever they are (a Debian image sets
    /// both trust variables and the AWS CLI's bundle): nothing scrubbed,
    /// an https:// upload trusted with `--cacert` or unverified with `-k`,
    /// and a plain http:// one, all go.
    @Test func theMachinesOwnEnvironmentStopsNoRequest() async throws {
        let plain = try await TestHTTPServer.start()
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let asItIs = ["--no-progress", "--timeout", "600"]
        let http = try await UploaderProcess.run(["127.0.0.1:\(plain.port)/up", "note=hi", "--noproxy", "*"] + asItIs)
        #expect(http.status == 0, "\(http.standardError)")
        let cacert = try await UploaderProcess.run([server.url(path: "/cacert").absoluteString, "note=hi", "--noproxy", "*", "--cacert", server.file("ca.pem")] + asItIs)
        #expect(cacert.status == 0, "\(cacert.standardError)")
        let insecure = try await UploaderProcess.run([server.url(path: "/k").absoluteString, "note=hi", "--noproxy", "*", "-k"] + asItIs)
        #expect(insecure.status == 0, "\(insecure.standardError)")
        try await plain.stop()
        #expect(plain.requests.count == 1)
        #expect(try server.requests().map(\.path) == ["/cacert", "/k"])
    }

    @Test func insecureSendsAndWarnsOnEveryRun() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let warning = "uploader: warning: --insecure: the server's certificate is not verified; anyone on the path can read or change this upload\n"
        for option in ["-k", "--insecure"] {
            let result = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", option])
            #expect(result.status == 0, "\(result.standardError)")
            #expect(result.standardError == warning)
        }
        #expect(try server.requests().count == 2)
    }

    @Test func aNameMismatchAndAnExpiredCertificateEachSayWhich() async throws {
        let wrongName = try await TLSTestServer.start(mode: .wrongName)
        defer { wrongName.stop() }
        let mismatch = try await Self.run([wrongName.url().absoluteString, "note=hi", "--cacert", wrongName.file("ca.pem")])
        #expect(mismatch.status == 3)
        #expect(mismatch.standardError == "uploader: POST https://127.0.0.1:\(wrongName.port)/: the server's certificate for 127.0.0.1:\(wrongName.port) was issued for another name (not 127.0.0.1): use the name the certificate was issued for\n")
        #expect(try wrongName.requests().isEmpty)

        let expired = try await TLSTestServer.start(mode: .expired)
        defer { expired.stop() }
        let result = try await Self.run([expired.url().absoluteString, "note=hi", "--cacert", expired.file("ca.pem")])
        #expect(result.status == 3)
        let prefix = "uploader: POST https://127.0.0.1:\(expired.port)/: the server's certificate for 127.0.0.1:\(expired.port) expired on "
        #expect(result.standardError.hasPrefix(prefix) && result.standardError.hasSuffix(" UTC: the server must renew it (--insecure skips verification)\n"), "\(result.standardError)")
        #expect(try expired.requests().isEmpty)
    }

    // MARK: Client certificates

    @Test func aClientCertificateIsPresentedAndABadOneSendsNothing() async throws {
        let server = try await TLSTestServer.start(mode: .clientCertificate)
        defer { server.stop() }
        let url = server.url(path: "/up").absoluteString
        let ca = ["--cacert", server.file("ca.pem")]

        let missing = try await Self.run([url, "note=hi"] + ca)
        #expect(missing.status == 3)
        #expect(missing.standardError == "uploader: POST \(url): the server at 127.0.0.1:\(server.port) requires a client certificate: pass --cert FILE (and --key FILE)\n")

        let separate = try await Self.run([url, "note=hi", "--cert", server.file("client.pem"), "--key", server.file("client-key.pem")] + ca)
        #expect(separate.status == 0, "\(separate.standardError)")
        let combined = try await Self.run([url, "note=hi", "--cert", server.file("client-combined.pem")] + ca)
        #expect(combined.status == 0, "\(combined.standardError)")
        #expect(try server.requests() == Array(repeating: .init(method: "POST", path: "/up", bytes: 13, client: "uploader test client"), count: 2))

        let cases: [([String], String)] = [
            (["--cert", server.file("client.pem"), "--key", server.file("other-key.pem")],
             "the private key in \(server.file("other-key.pem")) does not match the client certificate in \(server.file("client.pem"))"),
            (["--cert", server.file("client.pem"), "--key", server.file("client-key-encrypted.pem")],
             "the private key in \(server.file("client-key-encrypted.pem")) is encrypted; decrypt it first (openssl pkey -in \(server.file("client-key-encrypted.pem")) -out key.pem)"),
            (["--cert", server.file("missing.pem")], "cannot read the client certificate file \(server.file("missing.pem")): No such file or directory"),
            (["--key", server.file("client-key.pem")], "--key needs --cert: give the client certificate's file too"),
        ]
        for (options, message) in cases {
            let result = try await Self.run([url, "note=hi"] + ca + options)
            #expect(result.status == 2 && result.standardError == "uploader: \(message)\n", "\(options): \(result.standardError)")
        }
        #expect(try server.requests().count == 2)
    }

    // MARK: Proxies

    @Test func anHTTPSTargetGoesThroughTheProxyGivenAndNowhereElse() async throws {
        let proxy = try await ForwardProxy.start()
        defer { proxy.stop() }
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let result = try await Self.run([
            server.url(path: "/up").absoluteString, "note=hi", "--cacert", server.file("ca.pem"), "--proxy", "http://127.0.0.1:\(proxy.port)",
        ])
        #expect(result.status == 0, "\(result.standardError)")
        #expect(try server.requests() == [.init(method: "POST", path: "/up", bytes: 13, client: nil)])
        let log = try await proxy.accessLog(atLeast: 1)
        #expect(log.count == 1 && log.allSatisfy { $0.contains("CONNECT 127.0.0.1:\(server.port)") }, "\(log)")
    }

    /// `http_proxy` with credentials: they go to the proxy only, and `-v`
    /// names the proxy with the password hidden.
    @Test func theEnvironmentsProxyCarriesItsCredentialsAndNeverShowsThem() async throws {
        let proxy = try await ForwardProxy.start(credentials: "user:s3cret")
        defer { proxy.stop() }
        let server = try await TestHTTPServer.start()
        let result = try await Self.run(
            [server.url(path: "/up").absoluteString, "note=hi", "-v"],
            environment: ["http_proxy": "http://user:s3cret@127.0.0.1:\(proxy.port)"]
        )
        let requests = server.requests
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("* through proxy http://user:***@127.0.0.1:\(proxy.port)\n"), "\(result.standardError)")
        #expect(!result.standardError.contains("s3cret"))
        #expect(requests.count == 1 && requests.first?.bodyByteCount == 13 && requests.first?.header("Proxy-Authorization") == nil)
        // An http:// target goes to the proxy in absolute form, as curl sends it
        // (proxy.py logs it without its scheme; a tunnel reads "CONNECT").
        let log = try await proxy.accessLog(atLeast: 1)
        #expect(log.count == 1 && log.allSatisfy { $0.contains("POST 127.0.0.1:\(server.port)/up") }, "\(log)")
    }

    @Test func aProxyThatCannotBeReachedIsNamedNotTheTarget() async throws {
        let server = try await TestHTTPServer.start()
        let port = try Self.closedPort()
        let given = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "--proxy", "127.0.0.1:\(port)"])
        let fromEnvironment = try await Self.run([server.url(path: "/up").absoluteString, "note=hi"], environment: ["ALL_PROXY": "http://127.0.0.1:\(port)"])
        let requests = server.requests
        try await server.stop()
        for result in [given, fromEnvironment] {
            #expect(result.status == 3)
            #expect(result.standardError == "uploader: POST \(server.url(path: "/up").absoluteString): proxy 127.0.0.1:\(port) refused the connection\n")
        }
        #expect(requests.isEmpty)
    }

    /// `no_proxy` sends a host directly, `--noproxy` replaces it, and
    /// `HTTP_PROXY` in capitals is not read (curl's rule).
    @Test func noProxyAndNoproxyChooseWhichHostsGoDirectly() async throws {
        let server = try await TestHTTPServer.start()
        let port = try Self.closedPort()
        let url = server.url(path: "/up").absoluteString
        let bypassed = try await Self.run([url, "note=hi"], environment: ["http_proxy": "http://127.0.0.1:\(port)", "NO_PROXY": "example.com,127.0.0.1"])
        let overridden = try await Self.run([url, "note=hi", "--noproxy", "example.com"], environment: ["http_proxy": "http://127.0.0.1:\(port)", "no_proxy": "127.0.0.1"])
        let optionBypass = try await Self.run([url, "note=hi", "--proxy", "http://127.0.0.1:\(port)", "--noproxy", "*"])
        let capitals = try await Self.run([url, "note=hi"], environment: ["HTTP_PROXY": "http://127.0.0.1:\(port)"])
        let requests = server.requests
        try await server.stop()
        #expect(bypassed.status == 0, "\(bypassed.standardError)")
        #expect(overridden.status == 3 && overridden.standardError.contains("proxy 127.0.0.1:\(port) refused the connection"), "\(overridden.standardError)")
        #expect(optionBypass.status == 0, "\(optionBypass.standardError)")
        #expect(capitals.status == 0, "\(capitals.standardError)")
        #expect(requests.count == 3)
    }

    @Test func aProxyURLThatIsNotHTTPIsBadInput() async throws {
        let result = try await Self.run(["http://127.0.0.1:9/up", "note=hi", "--proxy", "https://user:pw@127.0.0.1:1080"])
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: --proxy: proxy https://user:***@127.0.0.1:1080: only http://, socks5:// and socks5h:// proxies are supported, not https://\n")
    }

    // MARK: Authentication

    /// What the recording server received as `Authorization` for each way of giving credentials.
    @Test func credentialOptionsSendAuthorizationAndAnItemWins() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "netrc-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let netrc = folder.appending(path: "netrc")
        try Data("""
            machine other.example login nobody password nothing
            machine 127.0.0.1
              login alice
              password "p w"
            default login anyone password anything

            """.utf8).write(to: netrc)
        let server = try await TestHTTPServer.start()
        let url = server.url(path: "/up").absoluteString
        let runs: [([String], [String: String])] = [
            (["-a", "user:pass"], [:]),
            (["--auth", "user:pass", "--netrc"], ["NETRC": netrc.path]),
            (["--bearer", "T0KEN"], [:]),
            (["--netrc"], ["NETRC": netrc.path]),
            (["--netrc"], ["HOME": folder.path, "NETRC": ""]),
            (["-a", "user:pass", "Authorization:Token mine"], [:]),
            (["--bearer", "T0KEN", "-H", "Authorization: Token mine"], [:]),
        ]
        try FileManager.default.copyItem(at: netrc, to: folder.appending(path: ".netrc"))
        var statuses: [Int32] = []
        for (arguments, environment) in runs {
            let result = try await Self.run([url, "note=hi"] + arguments, environment: environment)
            statuses.append(result.status)
        }
        let received = server.requests.map { $0.header("Authorization") }
        try await server.stop()
        #expect(statuses == Array(repeating: 0, count: runs.count))
        #expect(received == [
            "Basic dXNlcjpwYXNz", "Basic dXNlcjpwYXNz", "Bearer T0KEN", "Basic YWxpY2U6cCB3", "Basic YWxpY2U6cCB3", "Token mine", "Token mine",
        ])
    }

    @Test func verboseOutputNeverShowsTheCredentials() async throws {
        let server = try await TestHTTPServer.start()
        let basic = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "-v", "-a", "user:s3cret"])
        let bearer = try await Self.run([server.url(path: "/up").absoluteString, "note=hi", "-v", "--bearer", "t0ps3cret"])
        let received = server.requests.map { $0.header("Authorization") }
        try await server.stop()
        #expect(received == ["Basic dXNlcjpzM2NyZXQ=", "Bearer t0ps3cret"])
        for (result, secrets) in [(basic, ["s3cret", "dXNlcjpzM2NyZXQ="]), (bearer, ["t0ps3cret"])] {
            #expect(result.status == 0)
            #expect(result.standardError.contains("Authorization: "), "\(result.standardError)")
            for secret in secrets { #expect(!result.standardError.contains(secret), "\(result.standardError)") }
        }
    }

    /// `-a USER` asks on a terminal: util-linux's `script` gives the
    /// uploader one (a pseudo-terminal), with the password typed into it.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func aPasswordIsAskedForOnTheTerminal() async throws {
        let server = try await TestHTTPServer.start()
        let url = server.url(path: "/up").absoluteString
        let result = try await UploaderProcess.runShell(
            "printf 'pa ss\\n' | http_proxy= all_proxy= /usr/bin/script -qec \"\\\"$UPLOADER\\\" \(url) note=hi -a alice --no-progress\" /dev/null"
        )
        let received = server.requests.map { $0.header("Authorization") }
        try await server.stop()
        #expect(result.status == 0, "\(result.outputText) \(result.standardError)")
        #expect(result.outputText.contains("Enter password for user 'alice': "), "\(result.outputText)")
        #expect(received == ["Basic YWxpY2U6cGEgc3M="])  // alice:pa ss
    }

    /// `-a USER` asks on the terminal; the tests' standard input is a pipe.
    @Test func aPasswordPromptWithoutATerminalIsBadInputAndSendsNothing() async throws {
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(
            [server.url(path: "/up").absoluteString, "note=hi", "-a", "alice", "--no-progress"], standardInput: [], environment: Self.clean
        )
        let requests = server.requests
        try await server.stop()
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: -a alice: the password is asked for on the terminal, and standard input is not one; give -a USER:PASSWORD\n")
        #expect(requests.isEmpty)
    }

    /// A tus upload sends the credentials with every request, and its
    /// resume state, kept when the upload fails, holds none of them.
    @Test func aResumableUploadSendsTheCredentialsAndNeverSavesThem() async throws {
        let server = try await TestHTTPServer.start(script: .sequence([
            .status(204, headers: [("Tus-Resumable", "1.0.0"), ("Tus-Version", "1.0.0"), ("Tus-Extension", "creation")]),
            .status(201, headers: [("Location", "/files/1"), ("Tus-Resumable", "1.0.0")]),
            .status(500, headers: [("Tus-Resumable", "1.0.0")]),
        ]))
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let state = FileManager.default.temporaryDirectory.appending(path: "net-state-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: state) }
        let result = try await Self.run([
            "--tus", server.url(path: "/files").absoluteString, "f@\(fixture.file.path)", "--bearer", "t0ps3cret",
            "--state-dir", state.path, "--retry", "0",
        ])
        let received = server.requests.map { "\($0.method) \($0.header("Authorization") ?? "none")" }
        try await server.stop()
        #expect(result.status != 0)
        #expect(received == ["OPTIONS Bearer t0ps3cret", "POST Bearer t0ps3cret", "PATCH Bearer t0ps3cret"], "\(result.standardError)")
        let saved = try FileManager.default.contentsOfDirectory(atPath: state.path)
        #expect(saved.count == 1, "\(saved)")
        for name in saved {
            let text = try String(decoding: Data(contentsOf: state.appending(path: name)), as: UTF8.self)
            #expect(text.contains("files") && !text.contains("t0ps3cret") && !text.contains("Bearer"), "\(text)")
        }
    }

    /// Kinds of upload that cannot send the credentials refuse them.
    @Test func credentialOptionsAreRefusedWhereTheyCannotApply() async throws {
        let fixture = try UploadFixture(size: 10)
        defer { fixture.remove() }
        let s3 = try await Self.run(["s3://bucket/key", fixture.file.path, "--bearer", "T"])
        #expect(s3.status == 2)
        #expect(s3.standardError == "uploader: --bearer does not apply to s3:// uploads, which are signed with AWS credentials (the environment's, or the profile's: --profile)\n")
        let presigned = try await Self.run(["--presigned-post", "form.json", fixture.file.path, "--netrc"])
        #expect(presigned.status == 2)
        #expect(presigned.standardError == "uploader: --netrc does not apply to --presigned-post, whose form carries its own signature\n")
        let both = try await Self.run(["http://127.0.0.1:9/up", "note=hi", "-a", "u:p", "--bearer", "T"])
        #expect(both.status == 2)
        #expect(both.standardError == "uploader: --auth and --bearer are two kinds of credentials; choose one (see 'uploader --help')\n")
        let profile = try await Self.run(["http://127.0.0.1:9/up", "note=hi", "--profile", "moto"])
        #expect(profile.status == 2)
        #expect(profile.standardError == "uploader: --profile does not apply to plain requests; it applies to s3:// uploads: give s3://BUCKET/KEY FILE\n")
    }
}
