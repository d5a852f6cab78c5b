import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

/// An endpoint whose every property is given, so each test states exactly
/// what it describes and builds the same request with the builder.
struct TestEndpoint: Endpoint {
    typealias Response = Data

    var method: HTTPRequest.Method = .get
    var path: [String] = []
    var task: HTTPTask = .plain
    var headers: HTTPFields = [:]
    var baseURL: URL { TestAPI.baseURL }
}

enum TestAPI {
    static let baseURLString = "https://api.example.com/v1"
    // A literal URL, valid by inspection.
    static let baseURL = URL(string: baseURLString)!
    static let boundary = "test-boundary-0123456789"
}

struct NewPost: Codable, Sendable, Equatable {
    var userId: Int
    var title: String
    var body: String
}

struct PostFilter: Encodable, Sendable {
    var userId: Int
    var tag: String
}

struct Measurement: Encodable, Sendable {
    var label: String
    var value: Double
}

/// The whole request as HTTP/1.1 bytes.
func wireBytes(_ request: PreparedRequest) async throws -> [UInt8] {
    try await request.raw().collect()
}

/// A file with the given text in a fresh temporary folder; pair it with
/// `removeTemporaryFolder(of:)` so runs leave nothing behind.
func temporaryFile(named name: String, contents: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appending(path: "RequestBuilderTests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let url = folder.appending(path: name)
    try Data(contents.utf8).write(to: url)
    return url
}

/// Removes the folder `temporaryFile(named:contents:)` made for `file`.
func removeTemporaryFolder(of file: URL) {
    try? FileManager.default.removeItem(at: file.deletingLastPathComponent())
}
