import Foundation
import HTTPTypes
import RequestBuilder
import Testing

/// A port outside 0-65535 is refused when the request is built: Foundation
/// keeps 99999 as it is (NIO then traps on it) and drops a 20-digit port
/// (the request would go to port 80).
@Suite struct PortValidationTests {
    struct PortEndpoint: Endpoint {
        typealias Response = Data
        let base: String
        var baseURL: URL { URL(string: base) ?? URL(filePath: "/") }
        var path: [String] { ["items"] }
        var method: HTTPRequest.Method { .get }
        var task: HTTPTask { .plain }
        var headers: HTTPFields { [:] }
    }

    static let badPorts = ["65536", "99999", "12345678901234567890"]

    @Test(arguments: badPorts)
    func builderRefusesPortOutOfRange(port: String) throws {
        let error = #expect(throws: RequestError.self) { try HTTPRequestBuilder.get("http://example.com:\(port)/up").build() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains("\"\(port)\"") == true, "\(String(describing: error))")
        #expect(error?.description.contains("0 to 65535") == true)
    }

    @Test(arguments: badPorts)
    func endpointRefusesPortOutOfRange(port: String) throws {
        let error = #expect(throws: RequestError.self) { try PortEndpoint(base: "https://api.example.com:\(port)/v1").prepare() }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description.contains(port) == true)
    }

    @Test(arguments: [
        ("http://example.com:65535/", "example.com:65535"),
        ("http://example.com:0/", "example.com:0"),
        ("http://example.com:/", "example.com"),
        ("http://[::1]:8080/", "[::1]:8080"),
        ("https://example.com/", "example.com"),
    ])
    func keepsPortsInRange(url: String, authority: String) throws {
        let request = try HTTPRequestBuilder.get(url).build()
        #expect(request.head.authority == authority)
    }
}
