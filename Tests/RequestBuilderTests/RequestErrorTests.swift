import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import Testing

/// A bad description fails the build with `invalidRequest` and a message
/// naming the culprit, from an endpoint and from the builder alike.
@Suite struct RequestErrorTests {
    private func buildError(_ build: () throws(RequestError) -> PreparedRequest) -> RequestError? {
        do {
            _ = try build()
            return nil
        } catch {
            return error
        }
    }

    @Test(arguments: [
        (Duration.microseconds(100), "timed out after 0.0001 seconds"),
        (.seconds(1), "timed out after 1 second"),
        (.milliseconds(1500), "timed out after 1.5 seconds"),
        (.seconds(30), "timed out after 30 seconds"),
    ])
    func timeoutMessageGivesTheExactLimit(timeout: Duration, message: String) throws {
        let request = try HTTPRequestBuilder.get("http://example.com/").build()
        let error = RequestError.timedOut(request, after: timeout)
        #expect(error.description == "GET http://example.com/: \(message)")
    }

    @Test func dotSegmentIsRejectedWithItsName() throws {
        let fromEndpoint = buildError { () throws(RequestError) in try TestEndpoint(path: ["files", ".."]).prepare() }
        let fromBuilder = buildError { () throws(RequestError) in try HTTPRequestBuilder.get(TestAPI.baseURLString).path("files", "..").build() }
        for error in [fromEndpoint, fromBuilder] {
            let error = try #require(error)
            #expect(error.code == .invalidRequest)
            #expect(error.description.contains("\"..\""))
        }
    }

    @Test func emptySegmentIsRejected() throws {
        let error = try #require(buildError { () throws(RequestError) in try TestEndpoint(path: ["posts", ""]).prepare() })
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("segment 2"))
    }

    @Test func headerValueWithLineBreakIsRejectedNamingTheHeader() throws {
        let error = try #require(buildError { () throws(RequestError) in
            try HTTPRequestBuilder.get(TestAPI.baseURLString).header("X-Trace", "abc\r\nInjected: yes").build()
        })
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("X-Trace"))
    }

    @Test func headerValueWithNULIsRejectedBeforeHTTPFieldReplacesIt() throws {
        #expect(throws: RequestError.self) { try HTTPField.validated("X-Note", "a\u{0}b") }
        let error = try #require(buildError { () throws(RequestError) in
            try HTTPRequestBuilder.get(TestAPI.baseURLString).header(.accept, "text/plain\u{0}").build()
        })
        #expect(error.description.contains("Accept"))
    }

    @Test func headerNameWithSpaceIsRejectedNamingIt() throws {
        let error = try #require(buildError { () throws(RequestError) in
            try HTTPRequestBuilder.get(TestAPI.baseURLString).header("Bad Name", "x").build()
        })
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("\"Bad Name\""))
    }

    @Test func bearerTokenWithNewlineIsRejectedInEndpointHeaders() throws {
        struct Authorized: Endpoint {
            typealias Response = Data
            let token: String
            var baseURL: URL { TestAPI.baseURL }
            var path: [String] { ["me"] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headers: HTTPFields {
                get throws(RequestError) { HTTPFields([try .authorization(bearer: token)]) }
            }
        }
        let error = try #require(buildError { () throws(RequestError) in try Authorized(token: "abc\ndef").prepare() })
        #expect(error.description.contains("Authorization"))
    }

    @Test func framingHeaderSetByHandIsRejected() throws {
        let error = try #require(buildError { () throws(RequestError) in
            try HTTPRequestBuilder.post(TestAPI.baseURLString).header("Content-Length", "5").data(Data("hello".utf8)).build()
        })
        #expect(error.description.contains("Content-Length"))
    }

    @Test func unencodableJSONBodyNamesTheCodingPath() throws {
        let bad = [Measurement(label: "ok", value: 1), Measurement(label: "broken", value: .nan)]
        let fromEndpoint = buildError { () throws(RequestError) in try TestEndpoint(method: .post, task: .json(bad)).prepare() }
        let fromBuilder = buildError { () throws(RequestError) in try HTTPRequestBuilder.post(TestAPI.baseURLString).json(bad).build() }
        for error in [fromEndpoint, fromBuilder] {
            let error = try #require(error)
            #expect(error.code == .invalidRequest)
            #expect(error.description.contains("JSON body"))
            #expect(error.description.contains("[1].value"))
        }
    }

    @Test func missingFileIsRejectedNamingTheFile() throws {
        let missing = URL(filePath: "/nonexistent/photo-\(UUID().uuidString).jpg")
        let error = try #require(buildError { () throws(RequestError) in
            try HTTPRequestBuilder.put(TestAPI.baseURLString).file(at: missing).build()
        })
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains(missing.lastPathComponent))
    }

    @Test func missingMultipartFileIsRejectedNamingPartAndFile() throws {
        let missing = URL(filePath: "/nonexistent/scan-\(UUID().uuidString).pdf")
        let task = HTTPTask.multipart { form in try form.appendFile(at: missing, name: "scan") }
        let fromEndpoint = buildError { () throws(RequestError) in try TestEndpoint(method: .post, task: task).prepare() }
        let fromBuilder = buildError { () throws(RequestError) in
            try HTTPRequestBuilder.post(TestAPI.baseURLString).multipart { form in try form.appendFile(at: missing, name: "scan") }.build()
        }
        for error in [fromEndpoint, fromBuilder] {
            let error = try #require(error)
            #expect(error.code == .invalidRequest)
            #expect(error.description.contains(missing.lastPathComponent))
            #expect(error.description.contains("scan"))
        }
    }

    @Test func unencodableQueryNamesTheCodingPath() throws {
        struct Filter: Encodable, Sendable { var ratio: Double }
        let error = try #require(buildError { () throws(RequestError) in
            try HTTPRequestBuilder.get(TestAPI.baseURLString).query(Filter(ratio: .infinity)).build()
        })
        #expect(error.code == .invalidRequest)
        #expect(error.description.contains("query"))
        #expect(error.description.contains("ratio"))
    }

    @Test func baseURLWithoutHostIsRejected() throws {
        let error = try #require(buildError { () throws(RequestError) in try HTTPRequestBuilder.get("file:///etc/passwd").build() })
        #expect(error.description.contains("file:///etc/passwd"))
    }

    @Test func gzipLevelOutOfRangeIsRejected() throws {
        let error = try #require(buildError { () throws(RequestError) in
            try HTTPRequestBuilder.post(TestAPI.baseURLString).data(Data("x".utf8)).gzip(level: 12).build()
        })
        #expect(error.description.contains("12"))
    }
}
