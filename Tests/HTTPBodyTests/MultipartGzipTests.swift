import Foundation
import HTTPBody
import HTTPBodyTesting
import HTTPTypes
import TestSupport
import Testing

/// A multipart body compressed whole with gzip: goldens inflated back and
/// parsed, and already-compressed parts stored rather than deflated again.
@Suite struct MultipartGzipTests {
    /// Gzips the form, compares the whole HTTP request with its golden, then
    /// decodes the golden's body (zlib and Python's zlib), compares it with the
    /// plain multipart body and parses it with multipart-kit.
    private func expectGzippedMultipart(
        _ form: MultipartFormData, named name: String, parts expected: [ParsedPart],
        function: String = #function, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws {
        let plain = try RequestBody.multipart(form)
        let gzipped = plain.gzipped()
        #expect(gzipped.contentEncoding == "gzip", sourceLocation: sourceLocation)
        #expect(gzipped.length == nil, sourceLocation: sourceLocation)
        let raw = try await EncoderFixtures.post(gzipped)
        try GzipBodyTests.expectGzipGolden(raw, of: try await plain.collect(), named: name, function: function, sourceLocation: sourceLocation)
        let compressed = try #require(EncoderFixtures.body(ofRawRequest: raw), sourceLocation: sourceLocation)
        let inflated = try GzipBodyTests.gunzip(compressed)
        let parsed = try parseWithMultipartKit(inflated, boundary: form.boundary.value)
        #expect(parsed == expected, sourceLocation: sourceLocation)
    }

    @Test func gzipsTextFieldsAndInflatesBack() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        let prose = String(repeating: "All work and no play makes Jack a dull boy. ", count: 30)
        form.append(prose, name: "story")
        form.append("short", name: "note")
        try await expectGzippedMultipart(form, named: "text.http", parts: [
            part(#"name="story""#, text: prose),
            part(#"name="note""#, text: "short"),
        ])
    }

    @Test func gzipsFilesOfMixedCompressibilityAndInflatesBack() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = directory.appending(path: "server.log")
        let lines = (0..<400).map { "2026-11-22T10:00:\($0 % 60) GET /index.html 200\n" }.joined()
        try Data(lines.utf8).write(to: log)
        let jpeg = try Data(contentsOf: fixtures.appending(path: "MIME/photo.bin"))
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("nightly", name: "label")
        try form.appendFile(at: log, name: "files")
        try form.appendFile(at: fixtures.appending(path: "MIME/photo.bin"), name: "files", filename: "photo.jpg")
        try form.appendFile(at: fixtures.appending(path: "MIME/data.gz"), name: "files")
        let gz = try Data(contentsOf: fixtures.appending(path: "MIME/data.gz"))
        try await expectGzippedMultipart(form, named: "mixed.http", parts: [
            part(#"name="label""#, text: "nightly"),
            part(#"name="files"; filename="server.log""#, ["Content-Type: text/plain"], text: lines),
            part(#"name="files"; filename="photo.jpg""#, ["Content-Type: image/jpeg"], body: jpeg),
            part(#"name="files"; filename="data.gz""#, ["Content-Type: application/gzip"], body: gz),
        ])
    }

    @Test func storesJPEGPartInsideGzippedMultipart() async throws {
        var generator = SplitMix(seed: 42)
        let random = (0..<300_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        var form = MultipartFormData()
        form.append(random, name: "photo", filename: "photo.jpg", contentType: MediaType(type: "image", subtype: "jpeg"))
        let plain = try RequestBody.multipart(form)
        let compressed = try await plain.gzipped(level: 6).collect()
        let input = try #require(plain.length)
        // Stored blocks add 5 bytes per 64 KiB; the framing deflates to a few hundred bytes.
        #expect(Int64(compressed.count) >= input - 400)
        #expect(Int64(compressed.count) <= input + 400)
        #expect(try GzipBodyTests.gunzip(compressed) == (try await plain.collect()))
    }

    @Test func storesPartDeclaredCompressedEvenWhenItWouldDeflate() async throws {
        // Repetitive bytes deflate to almost nothing; marked image/jpeg they must be stored as they are.
        let repetitive = [UInt8](repeating: 0x41, count: 100_000)
        var stored = MultipartFormData()
        stored.append(repetitive, name: "photo", contentType: MediaType(type: "image", subtype: "jpeg"))
        var deflated = MultipartFormData()
        deflated.append(repetitive, name: "photo", contentType: .octetStream)
        let storedSize = try await RequestBody.multipart(stored).gzipped(level: 6).collect().count
        let deflatedSize = try await RequestBody.multipart(deflated).gzipped(level: 6).collect().count
        #expect(storedSize > 100_000)
        #expect(deflatedSize < 2_000)
    }

    @Test func textAroundStoredPartsStillDeflates() async throws {
        var generator = SplitMix(seed: 9)
        let photo = (0..<100_000).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        let json = "[" + (0..<5_000).map { #"{"id":\#($0),"ok":true}"# }.joined(separator: ",") + "]"
        var form = MultipartFormData()
        form.append(photo, name: "photo", contentType: MediaType(type: "image", subtype: "png"))
        form.append(Data(json.utf8), name: "meta", contentType: .json)
        let plain = try RequestBody.multipart(form)
        let compressed = try await plain.gzipped(level: 6).collect()
        #expect(compressed.count < photo.count + json.utf8.count / 4)
        #expect(try GzipBodyTests.gunzip(compressed) == (try await plain.collect()))
    }
}
