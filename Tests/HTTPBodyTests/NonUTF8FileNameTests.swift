import Foundation
import HTTPBody
import SystemPackage
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// A file whose name is not UTF-8 (Linux allows any bytes but `/` and NUL)
/// is opened by its bytes and named on the wire with them: `URL` cannot carry
/// such a name on Linux, `FilePath` can.
@Suite struct NonUTF8FileNameTests {
    static let nameBytes: [UInt8] = [0xFF, 0xFE] + Array(".txt".utf8)

    /// This test's folder, removed after it.
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("non-utf8") }

    /// Creates the file in the test's folder; returns its path.
    func makeFile() throws -> FilePath {
        let bytes = Array(folder.url.path(percentEncoded: false).utf8) + [UInt8(ascii: "/")] + Self.nameBytes
        let path = FilePath(platformString: bytes.map { CChar(bitPattern: $0) } + [0])
        let descriptor = path.withPlatformString { open($0, O_WRONLY | O_CREAT | O_TRUNC, 0o644) }
        try #require(descriptor >= 0)
        _ = "hello".withCString { write(descriptor, $0, 5) }
        close(descriptor)
        return path
    }

    @Test func filePartIsNamedWithTheExactBytes() async throws {
        let path = try makeFile()
        var form = MultipartFormData(boundary: try .constant("non-utf8-boundary"))
        try form.appendFile(atPath: path, name: "file", contentType: .plainText)
        let body = try await RequestBody.multipart(form).collect()
        let parts = try parseWithMultipartKit(body, boundary: "non-utf8-boundary")
        #expect(parts.count == 1)
        #expect(parts.first?.body == Array("hello".utf8))
        let expectedHead = Array("Content-Disposition: form-data; name=\"file\"; filename=\"".utf8) + Self.nameBytes + [UInt8(ascii: "\"")]
        #expect(body.firstRange(of: expectedHead) != nil)
    }

    @Test func fileBodyOpensTheExactBytes() async throws {
        let path = try makeFile()
        let body = try RequestBody.file(atPath: path, contentType: .plainText)
        #expect(try await body.collect() == Array("hello".utf8))
    }
}
