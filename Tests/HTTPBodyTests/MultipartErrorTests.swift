import Foundation
import HTTPBody
import HTTPTypes
import Testing

/// Every way a multipart body can fail, each naming the part at fault.
@Suite struct MultipartErrorTests {
    let boundary = "fixed-Boundary-123"

    @Test(arguments: ["", String(repeating: "a", count: 71), "quote\"", "trailing space ", "naïve", "new\nline", "semi;colon"])
    func rejectsInvalidBoundary(value: String) throws {
        let error = #expect(throws: MultipartError.self) { try MultipartBoundary.constant(value) }
        #expect(error?.code == .invalidBoundary)
        #expect(error?.description.contains(value.debugDescription) == true)
    }

    @Test func acceptsBoundaryOfSeventyAllowedCharacters() throws {
        let value = String(repeating: "'()+_,-./:=? 0aZ", count: 5).prefix(69) + "x"
        #expect(value.count == 70)
        #expect(try MultipartBoundary.constant(String(value)).value == String(value))
    }

    @Test func randomBoundariesAreValidAndDistinct() {
        let boundaries = (0..<100).map { _ in MultipartBoundary.random() }
        #expect(Set(boundaries.map(\.value)).count == 100)
        #expect(boundaries.allSatisfy { MultipartBoundary.isValid($0.value) && !$0.isCallerChosen })
    }

    @Test func rejectsBoundaryInTextField() throws {
        var form = MultipartFormData(boundary: try .constant(boundary))
        form.append("fine", name: "first")
        form.append("a\r\n--\(boundary)\r\nContent-Disposition: form-data; name=\"forged\"", name: "comment")
        let error = #expect(throws: MultipartError.self) { try RequestBody.multipart(form) }
        #expect(error?.code == .boundaryInContent)
        #expect(error?.partName == "comment")
        #expect(error?.description.contains("\"comment\"") == true)
    }

    @Test func rejectsBoundaryInDataPartEvenWithoutDashes() throws {
        var form = MultipartFormData(boundary: try .constant(boundary))
        form.append(Array("xx\(boundary)yy".utf8), name: "blob", contentType: .octetStream)
        let error = #expect(throws: MultipartError.self) { try form.validate() }
        #expect(error?.code == .boundaryInContent)
        #expect(error?.partName == "blob")
    }

    @Test(arguments: [5, 64, RequestBody.defaultChunkSize])
    func rejectsBoundaryInFileWhileStreaming(chunkSize: Int) async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "evil.txt")
        // The boundary starts at byte 61, so 64-byte reads cut it in two.
        let content = String(repeating: "x", count: 61) + "--\(boundary)" + String(repeating: "y", count: 100)
        try Data(content.utf8).write(to: url)
        var form = MultipartFormData(boundary: try .constant(boundary))
        try form.appendFile(at: url, name: "upload", contentType: .octetStream)
        let body = try RequestBody.multipart(form)  // files are not read up front
        let error = await #expect(throws: MultipartError.self) {
            for try await _ in body.chunks(maximumChunkSize: chunkSize) {}
        }
        #expect(error?.code == .boundaryInContent)
        #expect(error?.partName == "upload")
        #expect(error?.description.contains(url.path(percentEncoded: false)) == true)
    }

    @Test func findsBoundarySplitAcrossFileReadsAtEveryOffset() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        for split in 1..<boundary.utf8.count {
            let url = directory.appending(path: "split-\(split).bin")
            try Data("ab\(boundary)cd".utf8).write(to: url)
            var form = MultipartFormData(boundary: try .constant(boundary))
            try form.appendFile(at: url, name: "f\(split)", contentType: .octetStream)
            let body = try RequestBody.multipart(form)
            await #expect(throws: MultipartError.self) {
                for try await _ in body.chunks(maximumChunkSize: split) {}
            }
        }
    }

    @Test func doesNotReportBoundaryFromTheFramingOrAnEarlierPart() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Each file ends with the first half of the boundary and the next starts with the second half.
        let first = directory.appending(path: "first.txt")
        let second = directory.appending(path: "second.txt")
        let half = boundary.utf8.count / 2
        try Data(("start " + boundary.prefix(half)).utf8).write(to: first)
        try Data((boundary.dropFirst(half) + " end").utf8).write(to: second)
        var form = MultipartFormData(boundary: try .constant(boundary))
        try form.appendFile(at: first, name: "a")
        try form.appendFile(at: second, name: "b")
        let bytes = try await RequestBody.multipart(form).collect()
        #expect(try parseWithMultipartKit(bytes, boundary: boundary).count == 2)
    }

    @Test func rejectsBoundaryInStreamAcrossChunks() async throws {
        let marker = Array("--\(boundary)".utf8)
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield(Array("data ".utf8) + marker.prefix(6))
            continuation.yield(Array(marker.dropFirst(6)))
            continuation.yield(Array(" more".utf8))
            continuation.finish()
        }
        var form = MultipartFormData(boundary: try .constant(boundary))
        form.append(stream: stream, name: "stdin", filename: "-")
        let error = await #expect(throws: MultipartError.self) { try await RequestBody.multipart(form).collect() }
        #expect(error?.code == .boundaryInContent)
        #expect(error?.partName == "stdin")
    }

    @Test func rejectsContentTypeThatWouldInjectHeaders() throws {
        var form = MultipartFormData(boundary: try .constant(boundary))
        let evil = MediaType(type: "text", subtype: "plain\r\nX-Injected: yes")
        form.append(Data("x".utf8), name: "doc", contentType: evil)
        let error = #expect(throws: MultipartError.self) { try RequestBody.multipart(form) }
        #expect(error?.code == .invalidHeader)
        #expect(error?.partName == "doc")
        #expect(error?.description.contains("Content-Type") == true)
    }

    @Test func rejectsParameterValueWithLineBreak() throws {
        var form = MultipartFormData()
        let evil = MediaType.plainText.setting("charset", to: "utf-8\n\nbody")
        form.append(Data("x".utf8), name: "doc", contentType: evil)
        let error = #expect(throws: MultipartError.self) { try form.validate() }
        #expect(error?.code == .invalidHeader)
    }

    @Test(arguments: ["nul\u{0}byte", "bell\u{7}", "del\u{7F}"])
    func rejectsControlCharactersThatCannotBeEscaped(name: String) throws {
        var form = MultipartFormData()
        form.append("x", name: name)
        let error = #expect(throws: MultipartError.self) { try RequestBody.multipart(form) }
        #expect(error?.code == .invalidHeader)
        #expect(error?.partName == name)
        var files = MultipartFormData()
        files.append(Data("x".utf8), name: "file", filename: name, contentType: .octetStream)
        #expect(throws: MultipartError.self) { try files.validate() }
    }

    @Test func rejectsContentDispositionAsExtraHeader() throws {
        var form = MultipartFormData()
        form.append("x", name: "field", headers: [.contentDisposition: "form-data; name=\"other\""])
        let error = #expect(throws: MultipartError.self) { try RequestBody.multipart(form) }
        #expect(error?.code == .invalidHeader)
        #expect(error?.description.contains("Content-Disposition") == true)
        #expect(error?.description.contains("\"field\"") == true)
    }

    @Test func rejectsContentTypeGivenTwice() throws {
        var form = MultipartFormData()
        form.append(Data("x".utf8), name: "twice", contentType: .json, headers: [.contentType: "text/plain"])
        let error = #expect(throws: MultipartError.self) { try RequestBody.multipart(form) }
        #expect(error?.code == .invalidHeader)
        #expect(error?.partName == "twice")
    }

    @Test func headerValuesCannotCarryLineBreaks() async throws {
        // HTTPFields turns CR and LF into spaces, so they never reach the framing.
        var form = MultipartFormData(boundary: try .constant(boundary))
        form.append("x", name: "f", headers: [HTTPField.Name("X-Note")!: "a\r\nX-Injected: 1"])
        let bytes = try await RequestBody.multipart(form).collect()
        let parsed = try parseWithMultipartKit(bytes, boundary: boundary)
        #expect(parsed.first?.headers.count == 2)
        #expect(parsed.first?.headers.contains { $0.hasPrefix("X-Injected") } == false)
    }

    @Test func fileThatGrowsFailsTheStreamNamingThePart() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "growing.log")
        try Data("1234".utf8).write(to: url)
        var form = MultipartFormData()
        try form.appendFile(at: url, name: "log")
        let body = try RequestBody.multipart(form)
        try Data("123456789".utf8).write(to: url)
        let error = await #expect(throws: RequestBodyError.self) { try await body.collect() }
        #expect(error?.code == .fileChangedSize)
        #expect(error?.description.contains("\"log\"") == true)
        #expect(error?.description.contains("growing.log") == true)
    }

    @Test func fileThatShrinksWhileBeingReadFailsTheStream() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "shrinking.bin")
        try Data(repeating: 7, count: 100_000).write(to: url)
        var form = MultipartFormData()
        try form.appendFile(at: url, name: "data", contentType: .octetStream)
        let body = try RequestBody.multipart(form)
        var iterator = body.chunks(maximumChunkSize: 10_000).makeAsyncIterator()
        _ = try await iterator.next()
        _ = try await iterator.next()
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 20_000)
        try handle.close()
        let error = await #expect(throws: RequestBodyError.self) {
            while try await iterator.next() != nil {}
        }
        #expect(error?.code == .fileChangedSize)
        #expect(error?.description.contains("\"data\"") == true)
    }

    @Test func missingFileNamesThePartAndThePath() throws {
        var form = MultipartFormData()
        let error = #expect(throws: RequestBodyError.self) {
            try form.appendFile(at: URL(filePath: "/nonexistent/holiday.jpg"), name: "photo")
        }
        #expect(error?.code == .fileNotFound)
        #expect(error?.description.contains("\"photo\"") == true)
        #expect(error?.description.contains("/nonexistent/holiday.jpg") == true)
        #expect(form.count == 0)
    }

    @Test func directoryIsNotAFilePart() throws {
        var form = MultipartFormData()
        let error = #expect(throws: RequestBodyError.self) {
            try form.appendFile(at: FileManager.default.temporaryDirectory, name: "folder")
        }
        #expect(error?.code == .notARegularFile)
        #expect(error?.description.contains("\"folder\"") == true)
    }

    /// The form sends the file it opened when the part was appended, so a
    /// name removed before sending still sends its bytes, once; a second
    /// read of the body opens the file by name and reports it missing.
    @Test func fileDeletedBeforeSendingFailsNamingThePart() async throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "gone.txt")
        try Data("bye".utf8).write(to: url)
        var form = MultipartFormData(boundary: try .constant("gone-boundary"))
        try form.appendFile(at: url, name: "gone")
        try FileManager.default.removeItem(at: url)
        let body = try RequestBody.multipart(form)
        let sent = try await body.collect()
        #expect(String(decoding: sent, as: UTF8.self).contains("text/plain\r\n\r\nbye\r\n--gone-boundary--"))
        let error = await #expect(throws: RequestBodyError.self) { try await body.collect() }
        #expect(error?.code == .fileNotFound)
        #expect(error?.description.contains("\"gone\"") == true)
    }

    @Test func streamPartCannotBeSentTwice() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield([1, 2, 3])
            continuation.finish()
        }
        var form = MultipartFormData()
        form.append(stream: stream, name: "once")
        let body = try RequestBody.multipart(form)
        _ = try await body.collect()
        let error = await #expect(throws: RequestBodyError.self) { try await body.collect() }
        #expect(error?.code == .alreadyConsumed)
        #expect(error?.description.contains("\"once\"") == true)
    }

    @Test func streamShorterThanDeclaredFailsNamingThePart() async throws {
        let stream = AsyncStream<[UInt8]> { continuation in
            continuation.yield([1, 2])
            continuation.finish()
        }
        var form = MultipartFormData()
        form.append(stream: stream, length: 5, name: "short")
        #expect(try RequestBody.multipart(form).length != nil)
        let error = await #expect(throws: RequestBodyError.self) { try await RequestBody.multipart(form).collect() }
        #expect(error?.code == .streamLengthMismatch)
        #expect(error?.description.contains("\"short\"") == true)
    }

    @Test func singleValueIsNotAForm() throws {
        var form = MultipartFormData()
        let error = #expect(throws: URLEncodedFormError.self) { try form.appendFields(from: 42) }
        #expect(error?.code == .topLevelNotKeyed)
    }
}

/// Checking files for a caller-chosen boundary before sending anything.
@Suite struct MultipartBoundaryCheckTests {
    @Test func findsBoundaryInFileBeforeSending() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let clean = directory.appending(path: "clean.txt")
        let evil = directory.appending(path: "evil.bin")
        try Data("nothing to see".utf8).write(to: clean)
        // Past the first 256 KiB read, straddling the second read's start.
        var content = [UInt8](repeating: 0x2E, count: RequestBody.defaultChunkSize - 5)
        content += Array("--Pre-Checked".utf8) + [UInt8](repeating: 0x2E, count: 10)
        try Data(content).write(to: evil)
        var form = MultipartFormData(boundary: try .constant("Pre-Checked"))
        try form.appendFile(at: clean, name: "clean")
        #expect(try form.problemIncludingFiles() == nil)
        try form.appendFile(at: evil, name: "evil")
        let error = try form.problemIncludingFiles()
        #expect(error?.code == .boundaryInContent)
        #expect(error?.partName == "evil")
        #expect(error?.description.contains("evil.bin") == true)
    }

    /// A large file is read in stretches on several threads; each reads the
    /// boundary's length minus one byte into the next, so an occurrence
    /// across a seam, or one at the very end, is still found.
    @Test(arguments: [2, 3, 4])
    func findsBoundaryAcrossTheSeamsOfAParallelCheck(lanes: Int) throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let pattern = Array("--Pre-Checked".utf8)
        let length = 3 * RequestBody.defaultChunkSize + 1001
        let stretch = (length + lanes - 1) / lanes
        let search = BoundarySearch(pattern: pattern)
        for start in [stretch - 1, stretch - 5, stretch - pattern.count + 1, length - pattern.count] {
            var content = [UInt8](repeating: 0x2E, count: length)
            content.replaceSubrange(start..<(start + pattern.count), with: pattern)
            let url = directory.appending(path: "seam-\(start).bin")
            try Data(content).write(to: url)
            #expect(try FileBoundaryCheck.fileContains(search, at: FileLocation(url), length: Int64(length), lanes: lanes), "at \(start)")
        }
        let clean = directory.appending(path: "clean.bin")
        try Data([UInt8](repeating: 0x2E, count: length)).write(to: clean)
        #expect(try !FileBoundaryCheck.fileContains(search, at: FileLocation(clean), length: Int64(length), lanes: lanes))
        // A file no longer of the length it was measured at is an error, not an answer.
        let error = #expect(throws: RequestBodyError.self) {
            try FileBoundaryCheck.fileContains(search, at: FileLocation(clean), length: Int64(length + 10), lanes: lanes)
        }
        #expect(error?.code == .fileChangedSize)
    }

    @Test func checkReportsFilesThatVanished() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "soon-gone.txt")
        try Data("x".utf8).write(to: url)
        var form = MultipartFormData(boundary: try .constant("b0undary"))
        try form.appendFile(at: url, name: "temp")
        try FileManager.default.removeItem(at: url)
        let error = #expect(throws: RequestBodyError.self) { try form.problemIncludingFiles() }
        #expect(error?.code == .fileNotFound)
        #expect(error?.description.contains("\"temp\"") == true)
    }
}
