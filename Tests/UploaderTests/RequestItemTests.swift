import Foundation
import Testing
@testable import uploader
import UploaderItems

@Suite struct RequestItemTests {
    @Test(arguments: [
        ("title=Hello", RequestItem.field(name: "title", value: "Hello")),
        ("title=", .field(name: "title", value: "")),
        ("email=a@b.c", .field(name: "email", value: "a@b.c")),
        ("n:=9007199254740993", .rawJSON(name: "n", json: "9007199254740993")),
        ("tags:=[\"a\",\"b\"]", .rawJSON(name: "tags", json: "[\"a\",\"b\"]")),
        ("page==2", .query(name: "page", value: "2")),
        ("q==a=b", .query(name: "q", value: "a=b")),
        ("Authorization:Bearer x=y", .header(name: "Authorization", value: "Bearer x=y")),
        ("X-Empty:", .header(name: "X-Empty", value: "")),
        ("Accept: text/html ", .header(name: "Accept", value: "text/html")),
        ("a\\=b=c", .field(name: "a=b", value: "c")),
        ("a\\:b:=1", .rawJSON(name: "a:b", json: "1")),
        ("back\\\\slash=1", .field(name: "back\\slash", value: "1")),
        ("a\\@b@f.txt", .file(name: "a@b", source: .init(path: "f.txt"))),
        // A combining mark right after the separator (found by the fuzzer): the
        // separator is a Unicode scalar, not a whole character.
        ("X-Note:\u{06D6}x", .header(name: "X-Note", value: "\u{06D6}x")),
        ("word=\u{0301}", .field(name: "word", value: "\u{0301}")),
        ("doc@\u{0301}.txt;type=text/plain", .file(name: "doc", source: .init(path: "\u{0301}.txt", type: "text/plain"))),
        // HTTPie's items keep a ';' that starts no parameter in the path.
        ("f@x;c.txt", .file(name: "f", source: .init(path: "x;c.txt"))),
    ])
    func parsesItem(text: String, expected: RequestItem) throws {
        #expect(try RequestItem(parsing: text) == expected)
    }

    @Test func parsesFileWithTypeAndFilenameInEitherOrder() throws {
        let expected = RequestItem.file(name: "photo", source: .init(path: "cat.jpg", type: "image/jpeg", filename: "x.jpg"))
        #expect(try RequestItem(parsing: "photo@cat.jpg;type=image/jpeg;filename=x.jpg") == expected)
        #expect(try RequestItem(parsing: "photo@cat.jpg;filename=x.jpg;type=image/jpeg") == expected)
        #expect(try RequestItem(parsing: "photo@cat.jpg;filename=\"a;b.jpg\"")
            == .file(name: "photo", source: .init(path: "cat.jpg", filename: "a;b.jpg")))
    }

    @Test func parsesStandardInputPart() throws {
        let item = try RequestItem(parsing: "log@-")
        guard case .file(_, let source) = item else {
            Issue.record("expected a file item, got \(item)")
            return
        }
        #expect(source.isStandardInput)
    }

    /// Empty names are sent as both peers send them (contract, "Peer syntax").
    @Test(arguments: [
        ("=value", RequestItem.field(name: "", value: "value")),
        ("@file", .file(name: "", source: .init(path: "file"))),
        (":=1", .rawJSON(name: "", json: "1")),
        ("==q", .query(name: "", value: "q")),
    ])
    func acceptsAnEmptyName(text: String, expected: RequestItem) throws {
        #expect(try RequestItem(parsing: text) == expected)
    }

    /// curl's `-F` value syntax, each case checked against curl 7.88's wire.
    @Test(arguments: [
        ("=v", RequestItem.field(name: "", value: "v")),
        ("a=b;type=text/x-foo", .textPart(name: "a", value: "b", type: "text/x-foo", filename: nil)),
        ("a=b; type=text/x", .textPart(name: "a", value: "b", type: "text/x", filename: nil)),
        ("a=b;filename=x.txt", .textPart(name: "a", value: "b", type: nil, filename: "x.txt")),
        (#"a="x;y""#, .field(name: "a", value: "x;y")),
        (#"a="x\"y\\z""#, .field(name: "a", value: #"x"y\z"#)),
        (#"f=@"my;file.txt""#, .file(name: "f", source: .init(path: "my;file.txt"))),
        ("f=@x;type=text/plain;charset=utf-8", .file(name: "f", source: .init(path: "x", type: "text/plain;charset=utf-8"))),
        ("f=@x;type=text/plain;charset=utf-8;filename=y", .file(name: "f", source: .init(path: "x", type: "text/plain;charset=utf-8", filename: "y"))),
        (#"f=@x;filename="a\"b.txt""#, .file(name: "f", source: .init(path: "x", filename: #"a"b.txt"#))),
        (#"f=@x;filename="a;b.txt";type=image/png"#, .file(name: "f", source: .init(path: "x", type: "image/png", filename: "a;b.txt"))),
    ])
    func parsesCurlFormSyntax(text: String, expected: RequestItem) throws {
        #expect(try RequestItem(parsingFormPart: text) == expected)
    }

    @Test func parsesCurlFormParts() throws {
        #expect(try RequestItem(parsingFormPart: "name=value") == .field(name: "name", value: "value"))
        #expect(try RequestItem(parsingFormPart: "name=\u{0301}value") == .field(name: "name", value: "\u{0301}value"))
        #expect(try RequestItem(parsingFormPart: "doc=@r.pdf;type=application/pdf")
            == .file(name: "doc", source: .init(path: "r.pdf", type: "application/pdf")))
    }

    @Test(arguments: ["plainword", ":value", "f@", "f@x;type=", "f@x;filename=\"open"])
    func rejectsMalformedItem(text: String) {
        let error = #expect(throws: InputError.self) { try RequestItem(parsing: text) }
        #expect(error?.description.contains("'\(text)'") == true)
    }
}

@Suite struct CommandLineSplitTests {
    @Test func keepsItemsAndFormPartsInTypedOrder() {
        let split = CommandLineSplit(["-v", "URL", "a=1", "-F", "b=2", "--timeout", "3", "c=3", "--form-part=d=4", "-Fe=5", "-H", "X: 1", "-HY:2"])
        #expect(split.entries == [
            .positional("URL"), .positional("a=1"), .formPart("b=2"), .positional("c=3"), .formPart("d=4"), .formPart("e=5"),
        ])
        #expect(split.headers == ["X: 1", "Y:2"])
        #expect(split.options == ["-v", "--timeout=3"])
    }

    @Test func givesOptionValuesThatStartWithADashToTheirOption() {
        let split = CommandLineSplit(["URL", "--timeout", "-1", "-o", "-", "--", "-not-an-option"])
        #expect(split.options == ["--timeout=-1", "--output=-"])
        #expect(split.entries == [.positional("URL"), .positional("-not-an-option")])
    }
}

@Suite struct TargetURLTests {
    @Test(arguments: [
        ("localhost:8080/up", "http://localhost:8080/up"),
        (":8080/up", "http://localhost:8080/up"),
        ("https://example.com", "https://example.com/"),
        ("example.com/a?b=c", "http://example.com/a?b=c"),
    ])
    func addsSchemeAndPath(text: String, expected: String) throws {
        #expect(try TargetURL.parse(text).url.absoluteString == expected)
    }

    @Test(arguments: ["ftp://example.com/", "http://", "http://exa mple.com/"])
    func rejectsInvalidURL(text: String) {
        #expect(throws: InputError.self) { try TargetURL.parse(text) }
    }
}

@Suite struct ProgressBarTests {
    @Test func rendersPercentRateAndTimeLeft() {
        let line = ProgressBar.render(sent: 512 * 1024 * 1024, total: 1024 * 1024 * 1024, elapsed: .seconds(2))
        #expect(line == " 50% [##########          ] 512.0 MiB / 1.00 GiB  256.0 MiB/s  eta 2s")
    }

    /// A narrow terminal loses the rate, then the file count, then the
    /// total, before the bar gets narrower than ten columns; no frame is
    /// wider than the terminal less one column.
    @Test func aNarrowTerminalDropsFieldsBeforeTheBar() {
        let sent: Int64 = 112 * 1024 * 1024, total: Int64 = 190 * 1024 * 1024
        let at50 = ProgressBar.render(sent: sent, total: total, elapsed: .seconds(1), files: (2, 5), columns: 50)
        #expect(at50 == " 58% [#######     ] 112.0 MiB / 190.0 MiB  eta 1s")
        let at80 = ProgressBar.render(sent: sent, total: total, elapsed: .seconds(1), files: (2, 5), columns: 80)
        #expect(at80 == " 58% [##########        ] 2/5 files  112.0 MiB / 190.0 MiB  112.0 MiB/s  eta 1s")
        let at30 = ProgressBar.render(sent: sent, total: total, elapsed: .seconds(1), columns: 30)
        #expect(at30 == " 58% [########       ] eta 1s")
        for columns in 25...120 {
            let line = ProgressBar.render(sent: sent, total: total, elapsed: .seconds(1), files: (2, 5), columns: columns)
            let bar = line.drop { $0 != "[" }.dropFirst().prefix { $0 != "]" }
            #expect(line.count <= columns - 1 && bar.count >= 10, "\(columns): \(line)")
        }
    }

    @Test func rendersUnknownTotal() {
        #expect(ProgressBar.render(sent: 1536, total: nil, elapsed: .seconds(1)) == "1.50 KiB sent  1.50 KiB/s")
    }

    /// A body of several files (a directory upload) counts the files whose
    /// last byte has gone, in the one bar of the whole transfer.
    @Test func countsTheFilesSentOfABodyOfSeveral() {
        #expect(ProgressBar.render(sent: 50, total: 100, elapsed: .seconds(1), files: (3, 7)) == " 50% [##########          ] 3/7 files  50 B / 100 B  50 B/s  eta 1s")
        let frames = LockedFrames()
        let bar = ProgressBar(fileEnds: [10, 20, 30]) { frames.append($0) }
        bar.update(sent: 20, total: 40)
        #expect(frames.all.last?.contains("] 2/3 files  20 B / 40 B") == true, "\(frames.all)")
        bar.update(sent: 40, total: 40)  // complete: drawn at once
        #expect(frames.all.last?.contains("] 3/3 files  40 B / 40 B") == true, "\(frames.all)")
        let single = LockedFrames()
        ProgressBar(fileEnds: [10]) { single.append($0) }.update(sent: 5, total: 20)
        #expect(single.all.last?.contains("files") == false, "one file: no count")
    }
}

/// Frames a bar drew, collected from whichever thread drew them.
private final class LockedFrames: @unchecked Sendable {
    // @unchecked Sendable: `frames` is only touched under `lock`.
    private let lock = NSLock()
    private var frames: [String] = []

    func append(_ frame: String) {
        lock.lock()
        frames.append(frame)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return frames
    }
}
