import Foundation
import HTTPBody
import HTTPTypes
import Logging
import NIOCore
import NIOPosix
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import TestSupport
import Testing

/// The README's "Sending requests" snippet, pasted verbatim into a function so
/// the compiler checks it; a test checks the README still says the same.
@Suite struct ReadmeSendingSnippetTests {
    /// Never called (it would go to api.example.com): it exists to compile the snippet.
    static func snippet(
        savedToken: String,
        signIn: @escaping @Sendable () async throws -> String,
        logger: Logger,
        photoURL: URL
    ) async throws -> Response {
        // README snippet begins
        let tokens = CredentialStore(credential: savedToken) { try await signIn() }
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [.retry(maximumAttempts: 3), .bearerToken(tokens), .logging(to: logger)]
        )
        let request = try HTTPRequestBuilder.put("https://api.example.com").path("photos", "1").file(at: photoURL).build()
        let response = try await client.send(request) { progress in print(progress.bytesSent) }
        // README snippet ends
        return response
    }

    /// Never called: it compiles the README's redaction snippet.
    static func redactionSnippet(logger: Logger) throws -> (PreparedRequest, LoggingMiddleware) {
        // README redaction snippet begins
        var redaction = LoggingMiddleware.Redaction.default
        redaction.headerNames.insert("X-Session")
        redaction.queryParameterNames.insert("sig")
        let request = try HTTPRequestBuilder.get("https://api.example.com/me?sig=abc").redacting(redaction).build()
        let logging = LoggingMiddleware.logging(to: logger, redaction: redaction)
        // README redaction snippet ends
        return (request, logging)
    }

    /// Never called: it compiles the README's streaming snippet.
    static func streamingSnippet(client: RequestClient, request: PreparedRequest, output: FileHandle) async throws {
        // README streaming snippet begins
        let download = try await client.stream(request)
        for try await chunk in download.body { try output.write(contentsOf: chunk) }
        // README streaming snippet ends
    }

    /// Never called: it compiles the README's progress-sequence snippet.
    static func progressSnippet(client: RequestClient, request: PreparedRequest) async throws -> Response {
        // README progress snippet begins
        let upload = client.sendWithProgress(request)
        for await progress in upload.progress { print(progress.bytesSent, "of", progress.totalBytes ?? -1) }
        let response = try await upload.response
        // README progress snippet ends
        return response
    }

    /// Never called: it compiles the README's conditional-requests snippet.
    static func conditionalSnippet(request: PreparedRequest) async throws -> Response {
        // README conditional snippet begins
        let cache = InMemoryResponseCache(maximumEntries: 100, maximumTotalBytes: 10 << 20)
        let cachingClient = RequestClient(transport: AsyncHTTPClientTransport(), middleware: [.conditionalRequests(cache: cache)])
        let feed = try await cachingClient.send(request)  // a 304 after the first time costs no body
        // README conditional snippet ends
        return feed
    }

    /// Never called: it compiles the README's TLS and proxy snippet.
    static func networkSnippet(request: PreparedRequest) async throws -> Response {
        // README network snippet begins
        var tls = TLSSettings.fromEnvironment()
        tls.trustRoots = .pemFile("staging-ca.pem")
        tls.clientIdentity = .init(certificateFile: "me.pem", keyFile: "me-key.pem")
        var proxies = try ProxySettings.fromEnvironment()
        proxies.httpsProxy = try ProxyServer(url: "http://user:secret@proxy.internal:3128")
        let transport = try AsyncHTTPClientTransport(tls: tls, proxies: proxies)
        let response = try await RequestClient(transport: transport).send(request)
        try await transport.shutdown()
        // README network snippet ends
        return response
    }

    /// Never called: it compiles the README's event-loop group snippet.
    static func eventLoopSnippet(tls: TLSSettings) async throws {
        // README event loop snippet begins
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let transport = try AsyncHTTPClientTransport(tls: tls, eventLoopGroup: group)
        // … send …
        try await transport.shutdown()
        try await group.shutdownGracefully()
        // README event loop snippet ends
    }

    /// Never called: it compiles the README's redirect snippet.
    static func redirectSnippet(tokens: CredentialStore, photoURL: URL) async throws -> Response {
        // README redirect snippet begins
        let client = RequestClient(
            transport: AsyncHTTPClientTransport(),
            middleware: [.bearerToken(tokens), .followingRedirects(max: 10)]
        )
        let upload = try HTTPRequestBuilder.post("https://uploads.example.com/photos").file(at: photoURL).build()
        let answer = try await client.send(upload)  // a 307 or 308 sends the file again; a 303 continues as GET
        // README redirect snippet ends
        return answer
    }

    @Test func readmeShowsTheRedirectSnippetCompiledHere() throws {
        #expect(try Self.compiledSnippet(named: "README redirect snippet") == Self.readmeBlock(at: 7))
        #expect(try !Self.readmeBlock(at: 7).isEmpty)
    }

    @Test func readmeShowsTheEventLoopSnippetCompiledHere() throws {
        #expect(try Self.compiledSnippet(named: "README event loop snippet") == Self.readmeBlock(at: 6))
        #expect(try !Self.readmeBlock(at: 6).isEmpty)
    }

    @Test func readmeShowsTheNetworkSnippetCompiledHere() throws {
        #expect(try Self.compiledSnippet(named: "README network snippet") == Self.readmeBlock(at: 5))
        #expect(try !Self.readmeBlock(at: 5).isEmpty)
    }

    @Test func readmeShowsTheProgressAndConditionalSnippetsCompiledHere() throws {
        #expect(try Self.compiledSnippet(named: "README progress snippet") == Self.readmeBlock(at: 3))
        #expect(try Self.compiledSnippet(named: "README conditional snippet") == Self.readmeBlock(at: 4))
        #expect(try !Self.readmeBlock(at: 4).isEmpty)
    }

    @Test func readmeShowsTheStreamingSnippetCompiledHere() throws {
        let readmeCode = try Self.readmeBlock(at: 2)
        #expect(!readmeCode.isEmpty)
        #expect(try Self.compiledSnippet(named: "README streaming snippet") == readmeCode)
    }

    @Test func readmeShowsTheRedactionSnippetCompiledHere() throws {
        let readmeCode = try Self.readmeBlock(at: 1)
        #expect(!readmeCode.isEmpty)
        #expect(try Self.compiledSnippet(named: "README redaction snippet") == readmeCode)
    }

    @Test func readmeShowsTheSendingSnippetCompiledHere() throws {
        let readmeCode = try Self.readmeBlock(at: 0)
        #expect(!readmeCode.isEmpty)
        #expect(try Self.compiledSnippet(named: "README snippet") == readmeCode)
    }

    /// The `index`th Swift block of the README's "Sending requests" section, imports left out.
    private static func readmeBlock(at index: Int) throws -> String {
        try ReadmeSnippet.readmeBlock(in: "Sending requests", at: index)
    }

    /// The lines of this file between `// <name> begins` and `// <name> ends`, unindented.
    private static func compiledSnippet(named name: String) throws -> String {
        try ReadmeSnippet.compiled(named: name, in: #filePath)
    }
}
