import Foundation
import HTTPBody
import HTTPTypes
import Testing

/// Golden multipart bodies, each also parsed back by multipart-kit and compared part by part.
@Suite struct MultipartGoldenTests {
    @Test func encodesOneTextField() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("Hello", name: "title")
        try await expectMultipart(form, named: "text.multipart", parts: [part(#"name="title""#, text: "Hello")])
    }

    @Test func encodesSeveralTextFieldsInOrder() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("Ada", name: "first")
        form.append("Lovelace", name: "last")
        form.append("1815", name: "born")
        try await expectMultipart(form, named: "fields.multipart", parts: [
            part(#"name="first""#, text: "Ada"),
            part(#"name="last""#, text: "Lovelace"),
            part(#"name="born""#, text: "1815"),
        ])
    }

    @Test func encodesEmptyTextValue() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("", name: "empty")
        form.append("x", name: "after")
        try await expectMultipart(form, named: "empty-value.multipart", parts: [
            part(#"name="empty""#, text: ""),
            part(#"name="after""#, text: "x"),
        ])
    }

    @Test func keepsRepeatedNamesAsSeparateParts() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("red", name: "colour")
        form.append("green", name: "colour")
        form.append("blue", name: "colour")
        try await expectMultipart(form, named: "repeated.multipart", parts: [
            part(#"name="colour""#, text: "red"),
            part(#"name="colour""#, text: "green"),
            part(#"name="colour""#, text: "blue"),
        ])
    }

    @Test func sendsUnicodeNamesAndValuesAsRawUTF8() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("日本語 ✓ ça va 🎉", name: "naïve résumé")
        try await expectMultipart(form, named: "unicode.multipart", parts: [
            part(#"name="naïve résumé""#, text: "日本語 ✓ ça va 🎉")
        ])
    }

    @Test func percentEncodesQuoteCRAndLFInNames() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("v", name: "a\"b\rc\nd; e=\\f")
        try await expectMultipart(form, named: "hostile-name.multipart", parts: [
            part(#"name="a%22b%0Dc%0Ad; e=\f""#, text: "v")
        ])
    }

    @Test func percentEncodesHostileFilenames() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append(Data("x".utf8), name: "upload", filename: "evil\"\r\nContent-Type: text/html\r\n\r\n.txt", contentType: .plainText)
        try await expectMultipart(form, named: "hostile-filename.multipart", parts: [
            part(#"name="upload"; filename="evil%22%0D%0AContent-Type: text/html%0D%0A%0D%0A.txt""#, ["Content-Type: text/plain; charset=utf-8"], text: "x")
        ])
    }

    @Test func keepsFileBaseNameByteForByte() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let decomposed = "cafe\u{301} – 写真.txt"  // NFD: must not be normalised
        let url = directory.appending(path: decomposed)
        try Data("menu\n".utf8).write(to: url)
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(at: url, name: "menu")
        let bytes = try await RequestBody.multipart(form).collect()
        #expect(bytes.firstRange(of: Array("filename=\"cafe\u{301} – 写真.txt\"".utf8)) != nil)
        #expect(bytes.firstRange(of: Array("filename=\"caf\u{E9}".utf8)) == nil)
        try await expectMultipart(form, named: "nfd-filename.multipart", parts: [
            part("name=\"menu\"; filename=\"cafe\u{301} – 写真.txt\"", ["Content-Type: text/plain"], text: "menu\n")
        ])
    }

    @Test func addsExtendedFilenameWhenAskedTo() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary(), includesExtendedFilename: true)
        form.append(Data("€".utf8), name: "f", filename: "naïve €uro \"q\".txt", contentType: .plainText)
        form.append("no filename here", name: "t")
        try await expectMultipart(form, named: "filename-star.multipart", parts: [
            part(#"name="f"; filename="naïve €uro %22q%22.txt"; filename*=UTF-8''na%C3%AFve%20%E2%82%ACuro%20%22q%22.txt"#, ["Content-Type: text/plain; charset=utf-8"], text: "€"),
            part(#"name="t""#, text: "no filename here"),
        ])
    }

    @Test func encodesEmptyFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "empty.dat")
        try Data().write(to: url)
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("before", name: "a")
        try form.appendFile(at: url, name: "nothing")
        form.append("after", name: "b")
        try await expectMultipart(form, named: "empty-file.multipart", parts: [
            part(#"name="a""#, text: "before"),
            part(#"name="nothing"; filename="empty.dat""#, ["Content-Type: application/octet-stream"], body: []),
            part(#"name="b""#, text: "after"),
        ])
    }

    @Test(arguments: [1, 1000, 70_001])
    func encodesFilesOfSeveralSizes(size: Int) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "lines-\(size).txt")
        let content = (0..<size).map { UInt8(ascii: "a") + UInt8($0 % 26) }
        try Data(content).write(to: url)
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(at: url, name: "file")
        form.append("done", name: "status")
        try await expectMultipart(form, named: "file-\(size).multipart", parts: [
            part("name=\"file\"; filename=\"lines-\(size).txt\"", ["Content-Type: text/plain"], body: content),
            part(#"name="status""#, text: "done"),
        ])
    }

    @Test func encodesAll256ByteValuesFromMemory() async throws {
        let all = (0...255).map { UInt8($0) }
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append(all + all.reversed(), name: "binary", filename: "bytes.bin", contentType: .octetStream)
        try await expectMultipart(form, named: "binary-memory.multipart", parts: [
            part(#"name="binary"; filename="bytes.bin""#, ["Content-Type: application/octet-stream"], body: all + all.reversed())
        ])
    }

    @Test func encodesAll256ByteValuesFromFile() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let all = (0...255).map { UInt8($0) }
        let url = directory.appending(path: "bytes.bin")
        try Data(all + all + all).write(to: url)
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(at: url, name: "binary", contentType: .octetStream)  // libmagic calls these bytes a TGA image
        try await expectMultipart(form, named: "binary-file.multipart", parts: [
            part(#"name="binary"; filename="bytes.bin""#, ["Content-Type: application/octet-stream"], body: all + all + all)
        ])
    }

    @Test func sniffsFilePartTypeFromContent() async throws {
        let png = try Data(contentsOf: fixtures.appending(path: "MIME/pixel"))
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(at: fixtures.appending(path: "MIME/pixel"), name: "image")
        try form.appendFile(at: fixtures.appending(path: "MIME/table.csv"), name: "table")
        try await expectMultipart(form, named: "sniffed.multipart", parts: [
            part(#"name="image"; filename="pixel""#, ["Content-Type: image/png"], body: png),
            part(#"name="table"; filename="table.csv""#, ["Content-Type: text/csv"], text: "name,age\nAda,36\nAlan,41\n"),
        ])
    }

    @Test func explicitContentTypeAndFilenameOverrideDefaults() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(
            at: fixtures.appending(path: "MIME/pixel"), name: "avatar",
            filename: "me.png", contentType: MediaType(type: "image", subtype: "x-custom")
        )
        let png = try Data(contentsOf: fixtures.appending(path: "MIME/pixel"))
        try await expectMultipart(form, named: "overrides.multipart", parts: [
            part(#"name="avatar"; filename="me.png""#, ["Content-Type: image/x-custom"], body: png)
        ])
    }

    @Test func sniffsDataPartsToo() async throws {
        let jpeg = try Data(contentsOf: fixtures.appending(path: "MIME/photo.bin"))
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append(jpeg, name: "photo", filename: "photo")
        form.append(Data(#"{"a":1}"#.utf8), name: "meta", filename: "meta.json")
        try await expectMultipart(form, named: "sniffed-data.multipart", parts: [
            part(#"name="photo"; filename="photo""#, ["Content-Type: image/jpeg"], body: jpeg),
            part(#"name="meta"; filename="meta.json""#, ["Content-Type: application/json"], text: #"{"a":1}"#),
        ])
    }

    @Test func writesExtraPartHeadersAfterContentType() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        let headers: HTTPFields = [.contentLanguage: "fr", HTTPField.Name("X-Checksum")!: "sha256=abc"]
        form.append("Bonjour", name: "greeting", headers: headers)
        form.append(Data("{}".utf8), name: "doc", contentType: .json, headers: [.contentLocation: "/docs/1"])
        try await expectMultipart(form, named: "extra-headers.multipart", parts: [
            part(#"name="greeting""#, ["Content-Language: fr", "X-Checksum: sha256=abc"], text: "Bonjour"),
            part(#"name="doc""#, ["Content-Type: application/json", "Content-Location: /docs/1"], text: "{}"),
        ])
    }

    @Test func acceptsContentTypeAsExtraHeaderOfTextField() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("<b>hi</b>", name: "html", headers: [.contentType: "text/html; charset=utf-8"])
        try await expectMultipart(form, named: "typed-text.multipart", parts: [
            part(#"name="html""#, ["Content-Type: text/html; charset=utf-8"], text: "<b>hi</b>")
        ])
    }

    @Test func sendsRawJSONPartsAsWritten() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        let json = #"{"big":9007199254740993,"tiny":1.5e300,"pi":0.1}"#
        form.append(Data(json.utf8), name: "meta", contentType: .json)
        try await expectMultipart(form, named: "json-part.multipart", parts: [
            part(#"name="meta""#, ["Content-Type: application/json"], text: json)
        ])
    }

    @Test func keepsCRLFInsideValues() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("line 1\r\nline 2\r\n\r\n--not-the-boundary\r\n", name: "text")
        form.append("--golden-boundary-7MA4YWxkTrZu0g", name: "almost")  // one character short
        try await expectMultipart(form, named: "crlf-value.multipart", parts: [
            part(#"name="text""#, text: "line 1\r\nline 2\r\n\r\n--not-the-boundary\r\n"),
            part(#"name="almost""#, text: "--golden-boundary-7MA4YWxkTrZu0g"),
        ])
    }

    @Test func streamsPartOfUnknownLength() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("first chunk, ".utf8))
            continuation.yield([])
            continuation.yield(Array("second chunk".utf8))
            continuation.finish()
        }
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("x", name: "before")
        form.append(stream: stream, name: "input", filename: "-")
        form.append("y", name: "after")
        let body = try RequestBody.multipart(form)
        #expect(body.length == nil)
        #expect(!body.isReplayable)
        try await expectMultipart(form, named: "stream.multipart", parts: [
            part(#"name="before""#, text: "x"),
            part(#"name="input"; filename="-""#, ["Content-Type: application/octet-stream"], text: "first chunk, second chunk"),
            part(#"name="after""#, text: "y"),
        ])
    }

    @Test func streamsPartOfKnownLength() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("0123456789".utf8))
            continuation.finish()
        }
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append(stream: stream, length: 10, name: "digits", contentType: .plainText)
        try await expectMultipart(form, named: "stream-known.multipart", parts: [
            part(#"name="digits""#, ["Content-Type: text/plain; charset=utf-8"], text: "0123456789")
        ])
    }

    @Test func mixesEveryKindOfPart() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "report.txt")
        try Data("quarterly numbers\n".utf8).write(to: url)
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("streamed".utf8))
            continuation.finish()
        }
        let gif = try Data(contentsOf: fixtures.appending(path: "MIME/pixel.gif"))
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("Q3", name: "title")
        try form.appendFile(at: url, name: "files")
        try form.appendFile(at: fixtures.appending(path: "MIME/pixel.gif"), name: "files")
        form.append(Data([0, 1, 2]), name: "raw", contentType: .octetStream)
        form.append(stream: stream, name: "log", contentType: .plainText)
        form.append("end", name: "title")
        try await expectMultipart(form, named: "mixed.multipart", parts: [
            part(#"name="title""#, text: "Q3"),
            part(#"name="files"; filename="report.txt""#, ["Content-Type: text/plain"], text: "quarterly numbers\n"),
            part(#"name="files"; filename="pixel.gif""#, ["Content-Type: image/gif"], body: gif),
            part(#"name="raw""#, ["Content-Type: application/octet-stream"], body: [0, 1, 2]),
            part(#"name="log""#, ["Content-Type: text/plain; charset=utf-8"], text: "streamed"),
            part(#"name="title""#, text: "end"),
        ])
    }

    @Test func encodesManySmallFields() async throws {
        var form = MultipartFormData(boundary: try goldenBoundary())
        var expected: [ParsedPart] = []
        for index in 0..<200 {
            form.append("value \(index)", name: "field\(index % 7)")
            expected.append(part("name=\"field\(index % 7)\"", text: "value \(index)"))
        }
        try await expectMultipart(form, named: "many-fields.multipart", parts: expected)
    }

    @Test func encodesSameFileTwice() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "twice.txt")
        try Data("same\n".utf8).write(to: url)
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(at: url, name: "copy")
        try form.appendFile(at: url, name: "copy", filename: "second.txt")
        try await expectMultipart(form, named: "same-file.multipart", parts: [
            part(#"name="copy"; filename="twice.txt""#, ["Content-Type: text/plain"], text: "same\n"),
            part(#"name="copy"; filename="second.txt""#, ["Content-Type: text/plain"], text: "same\n"),
        ])
    }

    @Test func encodesIncompressiblePartBetweenTextParts() async throws {
        let jpeg = try Data(contentsOf: fixtures.appending(path: "MIME/photo.bin"))
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("a", name: "before")
        try form.appendFile(at: fixtures.appending(path: "MIME/photo.bin"), name: "photo", filename: "photo.jpg")
        form.append("b", name: "after")
        try await expectMultipart(form, named: "jpeg-file.multipart", parts: [
            part(#"name="before""#, text: "a"),
            part(#"name="photo"; filename="photo.jpg""#, ["Content-Type: image/jpeg"], body: jpeg),
            part(#"name="after""#, text: "b"),
        ])
    }
}
