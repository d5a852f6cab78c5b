import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderURLSession
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import TestSupport
import Testing

/// What reaches a server from the same `PreparedRequest` on each
/// transport: AsyncHTTPClient sends the head as it is; URLSession on Linux
/// adds the fields listed in `URLSessionTransport`'s documentation, and
/// nothing else, and never replaces one the request carries.
@Suite struct TransportHeadTests {
    typealias Kind = TransportIntegrationTests.Kind

    /// The fields the server received for `build(url)`, and the request's own.
    static func exchange(
        kind: Kind,
        _ build: (URL) -> HTTPRequestBuilder
    ) async throws -> (sent: [(name: String, value: String)], head: HTTPFields) {
        let server = try await TestHTTPServer.start()
        let request = try build(server.url(path: "/up")).build()
        _ = try await RequestClient(transport: kind.make()).send(request)
        try await server.stop()
        return (try #require(server.requests.first).headers, request.head.headerFields)
    }

    static func upload(_ url: URL) -> HTTPRequestBuilder {
        HTTPRequestBuilder(.post, url).data(Data("hello".utf8), contentType: .plainText)
    }

    @Test func asyncHTTPClientAddsNothing() async throws {
        let (sent, head) = try await Self.exchange(kind: .asyncHTTPClient, Self.upload)
        #expect(sent.map(\.name) == head.map(\.name.rawName))
        #expect(sent.map(\.value) == head.map(\.value))
    }

    #if canImport(FoundationNetworking)
    @Test func urlSessionOnLinuxAddsItsOwnFieldsAndNothingElse() async throws {
        let (sent, head) = try await Self.exchange(kind: .urlSession, Self.upload)
        let own = Set(head.map { $0.name.canonicalName })
        let added = sent.filter { !own.contains($0.name.lowercased()) }
        #expect(Set(added.map { $0.name.lowercased() }) == ["accept", "accept-encoding", "accept-language", "connection", "user-agent"], "\(added)")
        for field in head {
            #expect(sent.filter { $0.name.lowercased() == field.name.canonicalName }.map(\.value) == [field.value], "\(field.name)")
        }
    }
    #endif

    /// A `User-Agent` and an `Accept` the request sets are what both
    /// transports send, once.
    @Test(arguments: Kind.allCases)
    func theRequestsOwnUserAgentAndAcceptWin(kind: Kind) async throws {
        let (sent, _) = try await Self.exchange(kind: kind) { Self.upload($0).userAgent("PhotoApp/2.1").accept(.json) }
        #expect(sent.filter { $0.name.lowercased() == "user-agent" }.map(\.value) == ["PhotoApp/2.1"])
        #expect(sent.filter { $0.name.lowercased() == "accept" }.map(\.value) == ["application/json"])
    }

    #if canImport(FoundationNetworking)
    /// A proxy set where Linux's URLSession would ignore it is refused,
    /// never silently bypassed.
    @Test func aProxyDictionaryLinuxIgnoresIsRefused() async throws {
        let server = try await TestHTTPServer.start()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.connectionProxyDictionary = ["HTTPEnable": 1, "HTTPProxy": "127.0.0.1", "HTTPPort": 3128]
        let client = RequestClient(transport: URLSessionTransport(configuration: configuration))
        let error = await ErrorRedactionTests.failure {
            _ = try await client.send(try HTTPRequestBuilder.get(server.url(path: "/x").absoluteString).build())
        }
        try await server.stop()
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains("AsyncHTTPClientTransport(tls:proxies:)") == true, "\(String(describing: error))")
        #expect(server.requests.isEmpty)
    }
    #endif
}
