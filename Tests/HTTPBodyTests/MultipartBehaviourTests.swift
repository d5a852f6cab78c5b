import Foundation
@testable import HTTPBody
import HTTPTypes
import Testing
import TestSupport

/// How a multipart body streams: lengths, replay, compressibility, open files, speed.
@Suite struct MultipartBehaviourTests {
    struct Address: Encodable {
        var street: String
        var city: String
        var zip: String?
    }

    struct Profile: Encodable {
        var name: String
        var age: Int
        var admin: Bool
        var score: Double
        var nickname: String?
        var tags: [String]
        var address: Address
        var previous: [Address]
        var website: URL
    }

    @Test func encodesEncodableValueIntoBracketedFields() async throws {
        let profile = Profile(
            name: "Ada", age: 36, admin: true, score: 0.5, nickname: nil, tags: ["math", "poetry"],
            address: Address(street: "1 St James's Sq", city: "London", zip: nil),
            previous: [Address(street: "Marylebone", city: "London", zip: "W1")],
            website: URL(string: "https://example.com/ada?x=1")!
        )
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFields(from: profile)
        try await expectMultipart(form, named: "encodable.multipart", parts: [
            part(#"name="name""#, text: "Ada"),
            part(#"name="age""#, text: "36"),
            part(#"name="admin""#, text: "1"),
            part(#"name="score""#, text: "0.5"),
            part(#"name="tags[]""#, text: "math"),
            part(#"name="tags[]""#, text: "poetry"),
            part(#"name="address[street]""#, text: "1 St James's Sq"),
            part(#"name="address[city]""#, text: "London"),
            part(#"name="previous[][street]""#, text: "Marylebone"),
            part(#"name="previous[][city]""#, text: "London"),
            part(#"name="previous[][zip]""#, text: "W1"),
            part(#"name="website""#, text: "https://example.com/ada?x=1"),
        ])
    }

    struct Special: Encodable {
        var when: Date
        var blob: Data
        var price: Decimal
        var maybe: [Int?]
        var nested: [String: [String: Int]]
    }

    @Test func encodesDatesDataDecimalsAndNilElements() async throws {
        var form = MultipartFormData(boundary: try .constant("B0UNDARY"))
        try form.appendFields(from: Special(
            when: Date(timeIntervalSince1970: 1_700_000_000), blob: Data([0xDE, 0xAD, 0xBE, 0xEF]),
            price: Decimal(string: "19.99")!, maybe: [1, nil, 3], nested: ["a": ["b": 1]]
        ))
        let parsed = try parseWithMultipartKit(try await RequestBody.multipart(form).collect(), boundary: "B0UNDARY")
        let fields = parsed.map { part in
            (part.headers.first ?? "", String(decoding: part.body, as: UTF8.self))
        }
        #expect(fields.map(\.0) == [
            #"Content-Disposition: form-data; name="when""#, #"Content-Disposition: form-data; name="blob""#,
            #"Content-Disposition: form-data; name="price""#, #"Content-Disposition: form-data; name="maybe[]""#,
            #"Content-Disposition: form-data; name="maybe[]""#, #"Content-Disposition: form-data; name="nested[a][b]""#,
        ])
        #expect(fields.map(\.1) == ["2023-11-14T22:13:20Z", "3q2+7w==", "19.99", "1", "3", "1"])
    }

    /// One engine: a struct gives the same names and values in a form body,
    /// a query string and a multipart form, whatever the strategies.
    @Test(arguments: [URLEncodedFormEncoder(), URLEncodedFormEncoder(arrayEncoding: .indexInBrackets, boolEncoding: .literal, keyEncoding: .convertToSnakeCase)])
    func encodesAStructAlikeInFormQueryAndMultipart(encoder: URLEncodedFormEncoder) async throws {
        let profile = Profile(
            name: "Ada L", age: 36, admin: true, score: 0.5, nickname: nil, tags: ["math", "poetry"],
            address: Address(street: "1 St James's Sq", city: "London", zip: nil),
            previous: [Address(street: "Marylebone", city: "London", zip: "W1")],
            website: URL(string: "https://example.com/ada?x=1")!
        )
        var form = MultipartFormData(boundary: try .constant("B0UNDARY"))
        try form.appendFields(from: profile, encoder: encoder)
        let parts = try parseWithMultipartKit(try await RequestBody.multipart(form).collect(), boundary: "B0UNDARY")
        let multipart = parts.map { part -> String in
            let name = (part.headers.first ?? "").components(separatedBy: "name=\"").last?.dropLast() ?? ""
            return "\(name)=\(String(decoding: part.body, as: UTF8.self))"
        }
        let formBody = String(decoding: try await RequestBody.form(profile, encoder: encoder).collect(), as: UTF8.self)
        let query = try encoder.encode(profile)
        #expect(formBody == query)
        let decoded = query.split(separator: "&").map { pair in
            pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                .map { $0.removingPercentEncoding ?? "" }.joined(separator: "=")
        }
        #expect(multipart == decoded)
        #expect(multipart.contains(encoder.boolEncoding == .literal ? "admin=true" : "admin=1"))
    }

    /// A JSON part beside a file, as APIs take metadata: `application/json`,
    /// keys sorted, checked by multipart-kit.
    @Test func appendsAnEncodableValueAsAJSONPart() async throws {
        struct Metadata: Encodable, Sendable { var title: String; var tags: [String]; var rating: Double }
        var form = MultipartFormData(boundary: try .constant("B0UNDARY"))
        try form.append(json: Metadata(title: "Sunset", tags: ["sea"], rating: 4.5), name: "metadata")
        form.append("caption", name: "note")
        let parts = try parseWithMultipartKit(try await RequestBody.multipart(form).collect(), boundary: "B0UNDARY")
        try #require(parts.count == 2)
        #expect(parts[0].headers == [#"Content-Disposition: form-data; name="metadata""#, "Content-Type: application/json"])
        #expect(String(decoding: parts[0].body, as: UTF8.self) == #"{"rating":4.5,"tags":["sea"],"title":"Sunset"}"#)
        let error = #expect(throws: JSONBodyError.self) { try form.append(json: ["bad": Double.nan], name: "x") }
        #expect(error?.description.contains("bad") == true)
    }

    @Test func knowsLengthWithoutReadingFiles() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "big.bin")
        #expect(FileManager.default.createFile(atPath: url.path(percentEncoded: false), contents: nil))
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 5_000_000_000)  // sparse: 5 GB that were never written
        try handle.close()
        var form = MultipartFormData(boundary: try goldenBoundary())
        try form.appendFile(at: url, name: "big", contentType: .octetStream)
        let body = try RequestBody.multipart(form)
        let framing = "--golden-boundary-7MA4YWxkTrZu0gW\r\nContent-Disposition: form-data; name=\"big\"; filename=\"big.bin\"\r\nContent-Type: application/octet-stream\r\n\r\n\r\n--golden-boundary-7MA4YWxkTrZu0gW--\r\n"
        #expect(body.length == 5_000_000_000 + Int64(framing.utf8.count))
        #expect(body.isReplayable)
        #expect(body.length == Int64(5_000_000_000 + framing.utf8.count))
    }

    @Test func replaysFileAndMemoryParts() async throws {
        var form = MultipartFormData()
        form.append("x", name: "a")
        try form.appendFile(at: fixtures.appending(path: "MIME/pixel"), name: "b")
        let body = try RequestBody.multipart(form)
        #expect(body.isReplayable)
        let first = try await body.collect()
        #expect(try await body.collect() == first)
    }

    @Test func emptyFormIsOnlyTheClosingDelimiter() async throws {
        let form = MultipartFormData(boundary: try .constant("b"))
        let body = try RequestBody.multipart(form)
        #expect(try await body.collect() == Array("--b--\r\n".utf8))
        #expect(body.length == 7)
    }

    @Test func endsChunksWhereCompressibilityChanges() async throws {
        let jpeg = [0xFF, 0xD8, 0xFF, 0xE0] + [UInt8](repeating: 0x42, count: 3000)
        var form = MultipartFormData(boundary: try goldenBoundary())
        form.append("caption", name: "caption")
        form.append(jpeg, name: "photo", filename: "photo.jpg")
        try form.appendFile(at: fixtures.appending(path: "MIME/pixel"), name: "png")
        form.append("after", name: "note")
        var reader = ChunkReader(try RequestBody.multipart(form))
        var chunks: [([UInt8], Bool)] = []
        while let chunk = try await reader.next(maximumLength: 1_000_000, as: [UInt8].self) {
            chunks.append((chunk.storage, chunk.isCompressible))
        }
        let png = try [UInt8](Data(contentsOf: fixtures.appending(path: "MIME/pixel")))
        #expect(chunks.map(\.1) == [true, false, true, false, true])
        #expect(chunks[1].0 == jpeg)
        #expect(chunks[3].0 == png)
        #expect(String(decoding: chunks[2].0, as: UTF8.self).hasSuffix("Content-Type: image/png\r\n\r\n"))
    }

    @Test func endsIncompressibleChunkBeforeClosingDelimiter() async throws {
        let gzip = try [UInt8](Data(contentsOf: fixtures.appending(path: "MIME/data.gz")))
        var form = MultipartFormData(boundary: try .constant("end"))
        form.append(gzip, name: "archive")
        var reader = ChunkReader(try RequestBody.multipart(form))
        var chunks: [([UInt8], Bool)] = []
        while let chunk = try await reader.next(maximumLength: 1_000_000, as: [UInt8].self) {
            chunks.append((chunk.storage, chunk.isCompressible))
        }
        #expect(chunks.map(\.1) == [true, false, true])
        #expect(chunks.last?.0 == Array("\r\n--end--\r\n".utf8))
    }

    /// Each file is opened once, when it is appended, and held for its send
    /// (`HeldFile`): sending opens nothing more, and closes each file as it
    /// ends.
    @Test func holdsEachFileFromAppendToSend() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var form = MultipartFormData()
        for index in 0..<300 {
            let url = directory.appending(path: "f\(index).txt")
            try Data("file \(index)\n".utf8).write(to: url)
            try form.appendFile(at: url, name: "files", contentType: .plainText)
        }
        let held = try descriptorsOpen(under: directory)
        #expect(held > 0 && held <= min(300, HeldFile.budget))
        var most = 0
        var total = 0
        for try await chunk in try RequestBody.multipart(form).chunks(maximumChunkSize: 16) {
            most = max(most, try descriptorsOpen(under: directory))
            total += chunk.count
        }
        #expect(most <= held)
        #expect(try descriptorsOpen(under: directory) == 0)
        #expect(total > 300 * 8)
    }

    /// Past the process's budget of held descriptors a file is closed after
    /// it is measured and opened again when sent, so a form of any number of
    /// files holds a bounded number.
    @Test func holdsNoMoreFilesThanTheBudget() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let count = HeldFile.budget + 20
        var form = MultipartFormData(boundary: try .constant("budget"))
        for index in 0..<count {
            let url = directory.appending(path: "f\(index)")
            try Data("\(index),".utf8).write(to: url)
            try form.appendFile(at: url, name: "f", contentType: .plainText)
        }
        #expect(try descriptorsOpen(under: directory) <= HeldFile.budget)
        let body = String(decoding: try await RequestBody.multipart(form).collect(), as: UTF8.self)
        #expect(body.contains("\r\n\r\n0,\r\n") && body.contains("\r\n\r\n\(count - 1),\r\n--budget--\r\n"))
        #expect(try descriptorsOpen(under: directory) == 0)
    }

    /// A file sniffed when appended and replaced under its name before the
    /// body is read is sent as it was sniffed: through the same descriptor.
    @Test func fileReplacedAfterAppendingIsSentAsSniffed() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let png = try [UInt8](Data(contentsOf: fixtures.appending(path: "MIME/pixel")))
        let url = directory.appending(path: "picture")
        try Data(png).write(to: url)
        var form = MultipartFormData(boundary: try .constant("swap"))
        try form.appendFile(at: url, name: "picture")
        let other = directory.appending(path: "other")
        try Data("plain text, longer than the picture it replaces: \(String(repeating: "x", count: 200))".utf8).write(to: other)
        #expect(rename(other.path(percentEncoded: false), url.path(percentEncoded: false)) == 0)
        let body = try await RequestBody.multipart(form).collect()
        let head = Array("Content-Type: image/png\r\n\r\n".utf8)
        #expect(body.count == 0 + Array("--swap\r\nContent-Disposition: form-data; name=\"picture\"; filename=\"picture\"\r\n".utf8).count + head.count + png.count + "\r\n--swap--\r\n".utf8.count)
        #expect(Array(body.suffix(png.count + "\r\n--swap--\r\n".utf8.count).prefix(png.count)) == png)
    }

    @Test func encodesHundredThousandSmallFieldsQuickly() async throws {
        // Appending is where a per-part cost would grow: it is bounded in the
        // thread's processor time, which a busy machine does not stretch as it
        // does the wall clock; encoding speed is Benchmarks/compare.sh's row
        // (100,000 fields beside multipart-kit).
        let (form, spent) = ProcessorTime.measure {
            var form = MultipartFormData()
            for index in 0..<100_000 {
                form.append("value", name: "field\(index)")
            }
            return form
        }
        #expect(form.segments.isEmpty)  // one open stretch of one buffer, not a segment per part
        var bytes = 0
        for try await chunk in try RequestBody.multipart(form).chunks() { bytes += chunk.count }
        #expect(bytes > 100_000 * 80)
        #expect(spent < .seconds(5), "appending 100,000 fields took \(spent) of processor time even in a debug build")
    }

    /// How many of this process's descriptors are open on files in `directory`
    /// (other tests run in parallel, so all descriptors would not do).
    private func descriptorsOpen(under directory: URL) throws -> Int {
        let prefix = directory.resolvingSymlinksInPath().path(percentEncoded: false)
        let descriptors = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")
        return descriptors.count { descriptor in
            let target = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/\(descriptor)")
            return target?.hasPrefix(prefix) == true
        }
    }
}
