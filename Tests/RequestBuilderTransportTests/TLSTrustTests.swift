import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import NIOCore
import NIOPosix
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// HTTPS to servers with a private CA made by the server at start (issue
/// #27): trust roots from a PEM file or `SSL_CERT_FILE`, `--insecure`, a
/// client certificate, and each failure as one sentence naming the host.
/// Before, the only choice was the system's store, and every failure read
/// `handshakeFailed(NIOSSL.BoringSSLError…build path…)`.
@Suite(.serialized) struct TLSTrustTests {
    static func upload(_ url: URL, with transport: AsyncHTTPClientTransport) async throws -> Response {
        let client = RequestClient(transport: transport)
        let request = try HTTPRequestBuilder.post(url.absoluteString).data(Data("hello".utf8)).timeout(.seconds(600)).build()
        return try await client.send(request)
    }

    /// The error `operation` throws, or a test failure when it succeeds.
    static func failure(_ operation: () async throws -> Response) async -> RequestError? {
        do {
            let response = try await operation()
            Issue.record("expected a failure, got \(response.status)")
            return nil
        } catch let error as RequestError {
            return error
        } catch {
            Issue.record("expected a RequestError, got \(error)")
            return nil
        }
    }

    @Test func aPEMFileOfTheCAIsTrusted() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))))
        let response = try await Self.upload(server.url(path: "/up"), with: transport)
        try await transport.shutdown()
        #expect(response.status == .ok)
        #expect(try server.requests() == [.init(method: "POST", path: "/up", bytes: 5, client: nil)])
    }

    @Test func sslCertFileFromTheEnvironmentReplacesTheStore() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let tls = TLSSettings.fromEnvironment(["SSL_CERT_FILE": server.file("ca.pem")])
        #expect(tls.trustRoots == .openSSLLocations(file: server.file("ca.pem"), directory: nil))
        let transport = try AsyncHTTPClientTransport(tls: tls)
        let response = try await Self.upload(server.url(), with: transport)
        try await transport.shutdown()
        #expect(response.status == .ok)
    }

    /// `SSL_CERT_FILE` is checked for a certificate by reading only until
    /// the first one: here it starts after comments that end 10 bytes short
    /// of the first 16 KiB read, so its first line is cut by the read's end,
    /// and the CA it holds must still be the one the connection trusts.
    @Test func sslCertFileIsCheckedUpToItsFirstCertificate() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("tls-trust-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let line = "# a bundle's comment, as Mozilla's certdata has them\n"
        var comments = String(repeating: line, count: (16384 - 10) / line.utf8.count)
        comments += String(repeating: "#", count: 16384 - 10 - comments.utf8.count - 1) + "\n"
        #expect(comments.utf8.count == 16384 - 10)
        let bundle = folder.appendingPathComponent("bundle.pem")
        var bytes = Data(comments.utf8)
        bytes.append(try Data(contentsOf: URL(fileURLWithPath: server.file("ca.pem"))))
        try bytes.write(to: bundle)
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings.fromEnvironment(["SSL_CERT_FILE": bundle.path]))
        let response = try await Self.upload(server.url(path: "/up"), with: transport)
        try await transport.shutdown()
        #expect(response.status == .ok)

        let commentsOnly = folder.appendingPathComponent("comments.pem")
        try Data(String(repeating: line, count: 2000).utf8).write(to: commentsOnly)
        let missing = folder.appendingPathComponent("missing.pem")
        for (file, message) in [
            (commentsOnly.path, "the CA certificate file (SSL_CERT_FILE) \(commentsOnly.path) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"),
            (missing.path, "cannot read the CA certificate file (SSL_CERT_FILE) \(missing.path): No such file or directory"),
            (folder.path, "cannot read the CA certificate file (SSL_CERT_FILE) \(folder.path): Is a directory"),
        ] {
            // Only https:// requests need the roots: the transport is made,
            // and each https:// request gets the error instead of being sent.
            let transport = try AsyncHTTPClientTransport(tls: TLSSettings.fromEnvironment(["SSL_CERT_FILE": file]))
            let error = await Self.failure { try await Self.upload(server.url(path: "/never"), with: transport) }
            try await transport.shutdown()
            #expect(error?.code == .invalidRequest)
            #expect(error?.description == message)
        }
        #expect(try server.requests().count == 1)
    }

    /// A trust variable that cannot be used never stops a plain http://
    /// request: OpenSSL's users find the same.
    @Test func anUnusableTrustLocationLeavesPlainHTTPAlone() async throws {
        let server = try await TestHTTPServer.start()
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings.fromEnvironment(["SSL_CERT_FILE": "/nonexistent/ca.pem", "SSL_CERT_DIR": "/nonexistent"]))
        let response = try await Self.upload(URL(string: "http://127.0.0.1:\(server.port)/plain")!, with: transport)
        try await transport.shutdown()
        try await server.stop()
        #expect(response.status == .ok)
        #expect(server.requests.map(\.uri) == ["/plain"])
    }

    /// Both locations set, as Debian sets `SSL_CERT_FILE` and `SSL_CERT_DIR`:
    /// the CA is trusted from either, the directory read as OpenSSL's
    /// hashed directory; unverified (`verifiesServer = false`) needs neither.
    @Test func bothOpenSSLLocationsAreTrusted() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let hashed = try server.hashedCADirectory()
        for (file, directory) in [
            ("/etc/ssl/certs/ca-certificates.crt", hashed), (server.file("ca.pem"), "/etc/ssl/certs"), (nil, hashed),
        ] {
            let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .openSSLLocations(file: file, directory: directory)))
            let response = try await Self.upload(server.url(path: "/both"), with: transport)
            try await transport.shutdown()
            #expect(response.status == .ok, "\(file ?? "no file"), \(directory)")
        }
        let stock = TLSSettings(trustRoots: .openSSLLocations(file: "/etc/ssl/certs/ca-certificates.crt", directory: "/etc/ssl/certs"))
        let refusing = try AsyncHTTPClientTransport(tls: stock)
        let error = await Self.failure { try await Self.upload(server.url(path: "/stock"), with: refusing) }
        try await refusing.shutdown()
        #expect(error?.code == .untrustedCertificate)
        var unverified = stock
        unverified.verifiesServer = false
        let insecure = try AsyncHTTPClientTransport(tls: unverified)
        let response = try await Self.upload(server.url(path: "/insecure"), with: insecure)
        try await insecure.shutdown()
        #expect(response.status == .ok)
        #expect(try server.requests().map(\.path) == ["/both", "/both", "/both", "/insecure"])
    }

    @Test func anUnknownIssuerIsOneSentenceNamingTheHostAndTheFix() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings())
        let error = await Self.failure { try await Self.upload(server.url(path: "/up"), with: transport) }
        try await transport.shutdown()
        #expect(error?.code == .untrustedCertificate)
        #expect(error?.description == "POST https://127.0.0.1:\(server.port)/up: the server's certificate for 127.0.0.1:\(server.port) is not trusted (self-signed or unknown issuer): add its issuer to TLSSettings.trustRoots")
        #expect(try server.requests().isEmpty)
    }

    /// A transport given an event-loop group runs its connections there,
    /// the probe of a certificate it does not trust included, and works
    /// with the group shut down after it.
    @Test func aTransportRunsOnTheEventLoopGroupItIsGiven() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let trusting = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))), eventLoopGroup: group)
        #expect(trusting.client.eventLoopGroup === group)
        let response = try await Self.upload(server.url(path: "/up"), with: trusting)
        try await trusting.shutdown()
        #expect(response.status == .ok)
        let refusing = try AsyncHTTPClientTransport(tls: TLSSettings(), eventLoopGroup: group)
        let error = await Self.failure { try await Self.upload(server.url(path: "/refused"), with: refusing) }
        try await refusing.shutdown()
        #expect(error?.description.hasSuffix("is not trusted (self-signed or unknown issuer): add its issuer to TLSSettings.trustRoots") == true, "\(String(describing: error))")
        try await group.shutdownGracefully()
        #expect(try server.requests().map(\.path) == ["/up"])
    }

    /// Roots the app chose that do not vouch for the server: the message
    /// names their file, and gives no advice to add roots already given.
    @Test func anUnknownIssuerWithRootsGivenNamesTheirFile() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let other = try await TLSTestServer.start()
        defer { other.stop() }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(other.file("ca.pem"))))
        let error = await Self.failure { try await Self.upload(server.url(path: "/up"), with: transport) }
        try await transport.shutdown()
        #expect(error?.code == .untrustedCertificate)
        #expect(error?.description == "POST https://127.0.0.1:\(server.port)/up: the server's certificate for 127.0.0.1:\(server.port) is not trusted by the roots in \(other.file("ca.pem")) (self-signed or unknown issuer)")
        #expect(error?.localizedDescription == error?.description)
        #expect(try server.requests().isEmpty)
    }

    @Test func insecureSkipsVerification() async throws {
        let server = try await TLSTestServer.start()
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(verifiesServer: false))
        let response = try await Self.upload(server.url(), with: transport)
        try await transport.shutdown()
        #expect(response.status == .ok)
    }

    @Test func aCertificateForAnotherNameSaysSo() async throws {
        let server = try await TLSTestServer.start(mode: .wrongName)
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))))
        let error = await Self.failure { try await Self.upload(server.url(), with: transport) }
        try await transport.shutdown()
        #expect(error?.description == "POST https://127.0.0.1:\(server.port)/: the server's certificate for 127.0.0.1:\(server.port) was issued for another name (not 127.0.0.1): use the name the certificate was issued for")
        #expect(try server.requests().isEmpty)
    }

    /// BoringSSL's error does not tell an expired certificate from an
    /// unknown issuer: the transport reads the certificate to tell them
    /// apart, since only an unknown issuer is the user's to fix.
    @Test func anExpiredCertificateSaysWhenItExpired() async throws {
        let server = try await TLSTestServer.start(mode: .expired)
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))))
        let error = await Self.failure { try await Self.upload(server.url(), with: transport) }
        try await transport.shutdown()
        let prefix = "POST https://127.0.0.1:\(server.port)/: the server's certificate for 127.0.0.1:\(server.port) expired on "
        let suffix = " UTC: the server must renew it (TLSSettings.verifiesServer = false skips verification)"
        #expect(error?.description.hasPrefix(prefix) == true && error?.description.hasSuffix(suffix) == true, "\(String(describing: error))")
        // The date is the certificate's notAfter (tls_server.py: a day ago), to the minute.
        let date = error.map { String($0.description.dropFirst(prefix.count).dropLast(suffix.count)) } ?? ""
        let formatter = DateFormatter()
        (formatter.locale, formatter.timeZone, formatter.dateFormat) = (Locale(identifier: "en_US_POSIX"), TimeZone(identifier: "UTC"), "yyyy-MM-dd HH:mm 'UTC'")
        let expiry = try #require(formatter.date(from: date + " UTC"), "\(date)")
        #expect(abs(expiry.timeIntervalSinceNow + 86_400) < 3_600, "\(date)")
        #expect(try server.requests().isEmpty)
    }

    @Test(arguments: [false, true]) func aClientCertificateIsPresented(keyInCertificateFile: Bool) async throws {
        let server = try await TLSTestServer.start(mode: .clientCertificate)
        defer { server.stop() }
        let identity = keyInCertificateFile
            ? TLSSettings.ClientIdentity(certificateFile: server.file("client-combined.pem"))
            : TLSSettings.ClientIdentity(certificateFile: server.file("client.pem"), keyFile: server.file("client-key.pem"))
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem")), clientIdentity: identity))
        let response = try await Self.upload(server.url(path: "/up"), with: transport)
        try await transport.shutdown()
        #expect(response.status == .ok)
        #expect(try server.requests() == [.init(method: "POST", path: "/up", bytes: 5, client: "uploader test client")])
    }

    @Test func withoutTheClientCertificateItFailsInWords() async throws {
        let server = try await TLSTestServer.start(mode: .clientCertificate)
        defer { server.stop() }
        let transport = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem"))))
        let error = await Self.failure { try await Self.upload(server.url(), with: transport) }
        try await transport.shutdown()
        #expect(error?.code == .transport)
        #expect(error?.description == "POST https://127.0.0.1:\(server.port)/: the server at 127.0.0.1:\(server.port) requires a client certificate: give one with TLSSettings.clientIdentity")
        #expect(try server.requests().isEmpty)
    }

    /// Each bad identity file is an error when the transport is made, naming the file.
    @Test func aBadIdentityIsAConfigurationErrorNamingTheFile() async throws {
        let server = try await TLSTestServer.start(mode: .clientCertificate)
        defer { server.stop() }
        let cases: [(TLSSettings.ClientIdentity, String)] = [
            (.init(certificateFile: server.file("client.pem"), keyFile: server.file("client-key-encrypted.pem")),
             "the private key in \(server.file("client-key-encrypted.pem")) is encrypted; decrypt it first (openssl pkey -in \(server.file("client-key-encrypted.pem")) -out key.pem)"),
            (.init(certificateFile: server.file("client.pem"), keyFile: server.file("other-key.pem")),
             "the private key in \(server.file("other-key.pem")) does not match the client certificate in \(server.file("client.pem"))"),
            (.init(certificateFile: server.file("missing.pem"), keyFile: server.file("client-key.pem")),
             "cannot read the client certificate file \(server.file("missing.pem")): No such file or directory"),
            (.init(certificateFile: server.file("client.pem")),
             "the private key file \(server.file("client.pem")) holds no PEM private key (-----BEGIN PRIVATE KEY-----)"),
        ]
        for (identity, message) in cases {
            #expect {
                _ = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("ca.pem")), clientIdentity: identity))
            } throws: { error in
                (error as? RequestError)?.code == .invalidRequest && (error as? RequestError)?.description == message
            }
        }
        #expect {
            _ = try AsyncHTTPClientTransport(tls: TLSSettings(trustRoots: .pemFile(server.file("client-key.pem"))))
        } throws: { error in
            (error as? RequestError)?.description == "the CA certificate file \(server.file("client-key.pem")) holds no PEM certificate (-----BEGIN CERTIFICATE-----)"
        }
        #expect(try server.requests().isEmpty)
    }
}
