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

    @Test func parsesCurlFormParts() throws {
        #expect(try RequestItem(parsingFormPart: "name=value") == .field(name: "name", value: "value"))
        #expect(try RequestItem(parsingFormPart: "name=\u{0301}value") == .field(name: "name", value: "\u{0301}value"))
        #expect(try RequestItem(parsingFormPart: "doc=@r.pdf;type=application/pdf")
            == .file(name: "doc", source: .init(path: "r.pdf", type: "application/pdf")))
    }

    @Test(arguments: ["plainword", "=value", "@file", "f@", "f@x;type=", "f@x;filename=\"open"])
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

    @Test func rendersUnknownTotal() {
        #expect(ProgressBar.render(sent: 1536, total: nil, elapsed: .seconds(1)) == "1.50 KiB sent  1.50 KiB/s")
    }
}
