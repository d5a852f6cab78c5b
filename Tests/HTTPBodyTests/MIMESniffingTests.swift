import Foundation
@testable import HTTPBody
import Testing
import TestSupport

/// Sniffing media types from content, libmagic, and extensions.
@Suite struct MIMESniffingTests {
    func fixture(_ name: String) -> URL { fixtures.appending(path: "MIME/\(name)") }

    @Test func sniffsPNGWithoutExtension() throws {
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("pixel"))?.essence == "image/png")
        #expect(try SignatureMediaTypeSniffer().mediaType(ofFileAt: fixture("pixel"))?.essence == "image/png")
        #expect(try LibmagicMediaTypeSniffer().mediaType(ofFileAt: fixture("pixel"))?.essence == "image/png")
        #expect(try ExtensionMediaTypeSniffer().mediaType(ofFileAt: fixture("pixel")) == nil)
    }

    @Test func sniffsJPEGDespiteWrongExtension() throws {
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("photo.bin"))?.essence == "image/jpeg")
    }

    @Test func sniffsGIF() throws {
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("pixel.gif"))?.essence == "image/gif")
    }

    @Test func contentBeatsMisleadingExtension() throws {
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("document.pdf.txt"))?.essence == "application/pdf")
    }

    @Test func sniffsArchives() throws {
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("archive"))?.essence == "application/zip")
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("data.gz"))?.essence == "application/gzip")
    }

    @Test func fallsBackToLibmagicForFormatsOutsideTheTable() throws {
        #expect(SignatureTable.match(try [UInt8](Data(contentsOf: fixture("bundle")))) == nil)
        #expect(try SignatureMediaTypeSniffer().mediaType(ofFileAt: fixture("bundle"))?.essence == "application/octet-stream")
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("bundle"))?.essence == "application/x-tar")
    }

    /// libmagic's database is not held through what follows the sniffing (an
    /// upload, say): once unused for a moment its handles are closed, and the
    /// next call loads it again. A pool of the test's own, since other tests
    /// sniff through the shared one in parallel and keep it in use; the
    /// release is awaited, within a budget, rather than timed.
    @Test func closesLibmagicOnceUnusedAndLoadsItAgainWhenAsked() async throws {
        let tar = try [UInt8](Data(contentsOf: fixture("bundle")))
        let database = try #require(MagicDatabase())
        #expect(database.mediaType(of: tar)?.essence == "application/x-tar")
        let deadline = ContinuousClock.now + TestTime.liveness
        while database.openHandleCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(database.openHandleCount == 0)
        #expect(database.mediaType(of: tar)?.essence == "application/x-tar")
    }

    /// A pool limited to one handle serves sniffs from many tasks at once
    /// with that one (the others wait their turn), where an unlimited one
    /// opens one per core, each holding its share of the database.
    @Test func aPoolLimitedToOneHandleNeverOpensASecond() async throws {
        let tar = try [UInt8](Data(contentsOf: fixture("bundle")))
        let database = try #require(MagicDatabase())
        database.limitHandles(to: 1)
        let types = await withTaskGroup(of: String?.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var last: String?
                    for _ in 0..<20 { last = database.mediaType(of: tar)?.essence }
                    return last
                }
            }
            return await group.reduce(into: [String?]()) { $0.append($1) }
        }
        #expect(types == Array(repeating: "application/x-tar", count: 8))
        #expect(database.highestHandleCount == 1)
    }

    @Test func namesJSONAndCSVByExtensionWhenContentIsText() throws {
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("numbers.json"))?.essence == "application/json")
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("table.csv"))?.essence == "text/csv")
        let notJSON = MediaTypeSample(prefix: [0x00, 0x01, 0x02, 0xFE, 0x10, 0x00], filename: "fake.json")
        #expect(StandardMediaTypeSniffer().mediaType(of: notJSON)?.essence != "application/json")
        let brokenJSON = MediaTypeSample(prefix: Array("{\"a\": 1,\n".utf8), filename: "broken.json")
        #expect(StandardMediaTypeSniffer().mediaType(of: brokenJSON)?.essence == "text/plain")
        let longJSON = MediaTypeSample(prefix: Array(("[" + String(repeating: "1,", count: 5000)).utf8), filename: "long.json")
        #expect(!longJSON.isComplete)
        #expect(StandardMediaTypeSniffer().mediaType(of: longJSON)?.essence == "application/json")
        let textAsCSV = MediaTypeSample(prefix: Array("just some words\n".utf8), filename: "words.csv")
        #expect(StandardMediaTypeSniffer().mediaType(of: textAsCSV)?.essence == "text/csv")
    }

    @Test func namesTextByItsTextExtension() {
        func sniff(_ text: String, _ filename: String) -> String? {
            StandardMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: Array(text.utf8), filename: filename))?.essence
        }
        #expect(sniff("int main(void) { return 0; }\n", "notes.txt") == "text/plain")
        #expect(sniff("# Title\n\nSome *words*.\n", "README.md") == "text/markdown")
        #expect(sniff("<?xml version=\"1.0\"?>\n<a/>\n", "feed.xml") == "text/xml")
        #expect(sniff("<!DOCTYPE html>\n<p>hi</p>\n", "page.HTML") == "text/html")
        #expect(sniff("#!/bin/sh\necho hi\n", "run.sh") == "text/x-shellscript")
        #expect(sniff("import os\nprint(os.name)\n", "tool.py") == "text/x-script.python")
        // The same names libmagic gives these formats, so the path taken does not show.
        #expect(LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: Array("#!/bin/sh\necho hi\n".utf8)))?.essence == "text/x-shellscript")
        #expect(LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: Array("<?xml version=\"1.0\"?>\n<a/>\n".utf8)))?.essence == "text/xml")
        // A text extension on bytes that are not text is not believed.
        #expect(sniff("\u{0}\u{1}\u{2}\u{3} binary", "notes.txt") != "text/plain")
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        #expect(StandardMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: png, filename: "image.txt"))?.essence == "image/png")
    }

    @Test func sniffsPlainTextWithoutExtension() throws {
        #expect(try StandardMediaTypeSniffer().mediaType(ofFileAt: fixture("notes"))?.essence == "text/plain")
        #expect(SignatureMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: Array("héllo".utf8)))?.essence == "text/plain")
        #expect(SignatureMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: [0xEF, 0xBB, 0xBF, 0x01]))?.essence == "text/plain")
        #expect(SignatureMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: [0x41, 0x00, 0x42]))?.essence == "application/octet-stream")
    }

    @Test func emptyContentIsNamedByExtensionOnly() {
        #expect(StandardMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: [], filename: "empty.json"))?.essence == "application/json")
        #expect(StandardMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: [], filename: "empty")) == nil)
        #expect(LibmagicMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: [])) == nil)
    }

    @Test func extensionSnifferIgnoresContent() {
        let sample = MediaTypeSample(prefix: [0x89, 0x50, 0x4E, 0x47], filename: "Photo.JPEG")
        #expect(ExtensionMediaTypeSniffer().mediaType(of: sample)?.essence == "image/jpeg")
        #expect(sample.fileExtension == "jpeg")
        #expect(MediaTypeSample(prefix: [], filename: "dir.d/noext").fileExtension == nil)
        #expect(MediaTypeSample(prefix: [], filename: ".bashrc").fileExtension == nil)
        #expect(MediaTypeSample(prefix: [], filename: "backup.tar.GZ").fileExtension == "gz")
        #expect(MediaTypeSample(prefix: [], filename: "trailing.").fileExtension == nil)
    }

    @Test func matchesWHATWGSignaturesBuiltInTest() {
        func sniff(_ bytes: [UInt8]) -> String? { SignatureTable.match(bytes)?.essence }
        let riff: (String) -> [UInt8] = { Array("RIFF".utf8) + [0x10, 0, 0, 0] + Array($0.utf8) }
        #expect(sniff(riff("WEBPVP8 ")) == "image/webp")
        #expect(sniff(riff("WAVEfmt ")) == "audio/x-wav")
        #expect(sniff(riff("AVI LIST")) == "video/x-msvideo")
        #expect(sniff([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [0, 0, 2, 0] + Array("isommp41".utf8)) == "video/mp4")
        #expect(sniff([0, 0, 0, 0x14] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42".utf8)) == "video/mp4")
        #expect(sniff([0x1A, 0x45, 0xDF, 0xA3, 0x9F, 0x42, 0x86, 0x81, 0x01, 0x42, 0x82, 0x84] + Array("webm".utf8)) == "video/webm")
        #expect(sniff(Array("wOF2".utf8) + [0, 1, 0, 0]) == "font/woff2")
        // An sfnt table directory: 10 tables, search range 128, selector 3, shift 32.
        #expect(sniff(Array("OTTO".utf8) + [0, 10, 0, 128, 0, 3, 0, 32]) == "font/sfnt")
        #expect(sniff([0, 1, 0, 0] + [0, 16, 1, 0, 0, 4, 0, 0]) == "font/sfnt")
        #expect(sniff(Array("OTTO".utf8)) == nil, "four bytes are not a font")
        #expect(sniff([UInt8](repeating: 0, count: 34) + Array("LP".utf8)) == "application/vnd.ms-fontobject")
        #expect(sniff(Array("ID3".utf8) + [3, 0]) == "audio/mpeg")
        #expect(sniff([0x4F, 0x67, 0x67, 0x53, 0x00, 0x02]) == "audio/ogg")
        #expect(sniff(Array("Rar!".utf8) + [0x1A, 0x07, 0x00]) == "application/x-rar")
        #expect(sniff([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00]) == "application/x-xz")
        #expect(sniff(Array("%!PS-Adobe-3.0".utf8)) == "application/postscript")
        #expect(sniff(Array("plain words".utf8)) == nil)
    }

    /// A GTK icon cache starts with its version, 1.0: the same four bytes as
    /// a TrueType font, but no table directory follows.
    @Test func iconThemeCacheIsNotAFont() {
        let cache: [UInt8] = [0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x0C, 0x00, 0x00, 0x01, 0x64] + [UInt8](repeating: 0, count: 52)
        let type = StandardMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: cache, filename: "icon-theme.cache"))
        #expect(type?.essence != "font/sfnt")
        #expect(SignatureTable.match(cache) == nil)
    }

    /// Zip containers are named by their extension, as `file` and browsers name them.
    @Test(arguments: [("app.jar", "application/java-archive"), ("report.docx", "application/vnd.openxmlformats-officedocument.wordprocessingml.document"), ("book.epub", "application/epub+zip"), ("plain.zip", "application/zip"), ("no-extension", "application/zip")])
    func zipContainerIsNamedByItsExtension(filename: String, expected: String) {
        let zip: [UInt8] = [0x50, 0x4B, 0x03, 0x04, 0x14, 0x00, 0x08, 0x08] + Array("META-INF/MANIFEST.MF".utf8)
        #expect(StandardMediaTypeSniffer().mediaType(of: MediaTypeSample(prefix: zip, filename: filename))?.essence == expected)
    }

    @Test func marksAlreadyCompressedTypes() {
        for compressed in ["image/jpeg", "image/png", "image/gif", "image/webp", "application/zip", "application/gzip",
                           "application/x-bzip2", "application/x-xz", "application/x-7z-compressed", "video/mp4", "audio/mpeg", "audio/ogg"] {
            #expect(MediaType(compressed)?.isAlreadyCompressed == true, "\(compressed)")
        }
        for plain in ["text/plain", "application/json", "audio/x-wav", "audio/wav", "image/bmp", "application/octet-stream", "image/svg+xml"] {
            #expect(MediaType(plain)?.isAlreadyCompressed == false, "\(plain)")
        }
    }

    @Test func explicitTypeWinsOverSniffing() throws {
        #expect(try RequestBody.file(at: fixture("pixel"), contentType: .json).contentType == .json)
        var form = MultipartFormData()
        try form.appendFile(at: fixture("pixel"), name: "p", contentType: .plainText)
        #expect(try RequestBody.multipart(form).length != nil)
    }

    @Test func fileBodySniffsWhenNoTypeIsGiven() throws {
        #expect(try RequestBody.file(at: fixture("pixel")).contentType?.essence == "image/png")
        #expect(try RequestBody.file(at: fixture("numbers.json")).contentType?.essence == "application/json")
        #expect(try RequestBody.file(at: fixture("bundle")).contentType?.essence == "application/x-tar")
    }

    @Test func unknownBinaryFileBodyIsOctetStream() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "noise")
        // A fixed pattern (random bytes now and then look like some format to libmagic).
        try Data((0..<4096).map { UInt8(truncatingIfNeeded: $0 * $0 * 31 + $0 * 7 + 3) | 0x80 } + [0, 1, 2]).write(to: url)
        #expect(try RequestBody.file(at: url).contentType?.essence == "application/octet-stream")
    }

    @Test func readsOnlyThePrefixOfLargeFiles() throws {
        let directory = try makeTemporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let url = directory.appending(path: "huge.png")
        try Data(contentsOf: fixture("pixel")).write(to: url)
        let handle = try FileHandle(forWritingTo: url)
        try handle.truncate(atOffset: 8_000_000_000)  // sparse; reading it all would take seconds
        try handle.close()
        // Processor time, not wall time: reading the 8 GB would cost seconds
        // of it, and a busy machine cannot stretch it as it does the clock.
        let (type, spent) = try ProcessorTime.measure { try StandardMediaTypeSniffer().mediaType(ofFileAt: url) }
        #expect(type?.essence == "image/png")
        #expect(spent < .seconds(1), "\(spent)")
    }

    @Test func sniffsConcurrentlyFromManyTasks() async throws {
        let cases: [(String, String)] = [
            ("pixel", "image/png"), ("bundle", "application/x-tar"), ("notes", "text/plain"),
            ("numbers.json", "application/json"), ("document.pdf.txt", "application/pdf"), ("pixel.gif", "image/gif"),
        ]
        let samples = try cases.map { name, type in
            (MediaTypeSample(prefix: try [UInt8](Data(contentsOf: fixture(name))), filename: name), type)
        }
        let results = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<600 {
                let (sample, expected) = samples[index % samples.count]
                group.addTask {
                    LibmagicMediaTypeSniffer().mediaType(of: sample)?.essence == expected
                        && StandardMediaTypeSniffer().mediaType(of: sample)?.essence == expected
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results.count == 600)
        #expect(results.allSatisfy { $0 })
    }
}
