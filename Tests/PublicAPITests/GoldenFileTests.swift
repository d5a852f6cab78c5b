import Foundation
import HTTPBodyTesting
import Testing

/// `GoldenFile`'s rules, each checked against a file in a fresh temporary
/// folder, with the recording passed in rather than read from the environment
/// (CI sets `CI`).
@Suite final class GoldenFileTests {
    private let folder = FileManager.default.temporaryDirectory
        .appending(path: "golden-file-tests-\(UUID().uuidString)")

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    private func golden(_ name: String = "case.http") -> GoldenFile {
        GoldenFile(url: folder.appending(path: "nested").appending(path: name))
    }

    private func contents(of golden: GoldenFile) -> [UInt8]? {
        (try? Data(contentsOf: golden.url)).map { [UInt8]($0) }
    }

    private let request = Array("POST /a HTTP/1.1\r\nHost: h\r\nContent-Length: 2\r\n\r\nhi".utf8)

    @Test func recordsAMissingFileAndFailsThenPassesOnTheNextRun() {
        let file = golden()
        let failure = file.check(request, recording: .missing)
        #expect(failure?.kind == .recorded)
        #expect(failure?.description.contains(file.url.path) == true)
        #expect(contents(of: file) == request)
        #expect(file.check(request, recording: .missing) == nil)
    }

    @Test func neverWritesWhenRecordingIsNever() {
        let file = golden()
        #expect(file.check(request, recording: .never)?.kind == .missing)
        #expect(!FileManager.default.fileExists(atPath: file.url.path))
    }

    @Test func reportsDifferingTextLineByLineWithLineEndingsShown() {
        let file = golden()
        _ = file.check(request, recording: .missing)
        let changed = Array("POST /a HTTP/1.1\r\nHost: h\nContent-Length: 2\r\n\r\nhi".utf8)
        let failure = file.check(changed, recording: .missing)
        #expect(failure?.kind == .mismatch)
        let message = failure?.description ?? ""
        #expect(message.contains("at byte 25 (line 2); expected 50 bytes, got 49."))
        #expect(message.contains("\n  POST /a HTTP/1.1\\r\\n\n- Host: h\\r\\n\n+ Host: h\\n\n  Content-Length: 2\\r\\n"))
        #expect(contents(of: file) == request, "a mismatch must leave the golden file alone")
    }

    @Test func reportsDifferingBinaryAsHexRowsAroundTheFirstDifference() {
        let file = golden("case.bin")
        let old = (0..<64).map { UInt8($0) }
        _ = file.check(old, recording: .missing)
        var new = old
        new[40] = 0xFF
        let message = file.check(new, recording: .never)?.description ?? ""
        #expect(message.contains("golden 0x28, actual 0xff at byte 40"))
        #expect(message.contains("> 00000020  20 21 22 23 24 25 26 27  28 29 2a 2b 2c 2d 2e 2f  | !\"#$%&'()*+,-./|"))
        #expect(message.contains("> 00000020  20 21 22 23 24 25 26 27  ff 29 2a 2b 2c 2d 2e 2f  | !\"#$%&'.)*+,-./|"))
    }

    @Test func reportsEveryDifferingRegionOfABinaryBodyNotOnlyTheFirst() {
        let file = golden("case.bin")
        let old = (0..<256).map { UInt8($0) }
        _ = file.check(old, recording: .missing)
        var new = old
        new[40] = 0xFF
        new[200] = 0xEE
        let message = file.check(new, recording: .never)?.description ?? ""
        #expect(message.contains("at byte 40 (line 2); expected 256 bytes, got 256."), "\(message)")
        #expect(message.contains("region 1 of 2: golden 0x28, actual 0xff at byte 40"), "\(message)")
        #expect(message.contains("> 00000020  20 21 22 23 24 25 26 27  ff 29 2a 2b 2c 2d 2e 2f  | !\"#$%&'.)*+,-./|"), "\(message)")
        #expect(message.contains("region 2 of 2: golden 0xc8, actual 0xee at byte 200"), "\(message)")
        #expect(message.contains("> 000000c0  c0 c1 c2 c3 c4 c5 c6 c7  c8 c9 ca cb cc cd ce cf  |................|"), "\(message)")
        #expect(message.contains("> 000000c0  c0 c1 c2 c3 c4 c5 c6 c7  ee c9 ca cb cc cd ce cf  |................|"), "\(message)")
        // The rows between the regions are not the changed ones, so they are left out.
        #expect(!message.contains("00000070"), "\(message)")
    }

    @Test func reportsEveryDifferingHunkOfText() {
        let file = golden()
        let lines = (1...20).map { "line \($0)\r\n" }
        _ = file.check(Array(lines.joined().utf8), recording: .missing)
        var changed = lines
        changed[2] = "line three\r\n"
        changed[16] = "line seventeen\r\n"
        let message = file.check(Array(changed.joined().utf8), recording: .never)?.description ?? ""
        #expect(message.contains("@@ line 3 @@  (- golden, + actual; \\r and \\n are the bytes)\n  line 1\\r\\n\n  line 2\\r\\n\n- line 3\\r\\n\n+ line three\\r\\n\n  line 4\\r\\n\n  line 5\\r\\n\n"), "\(message)")
        #expect(message.contains("@@ line 17 @@\n  line 15\\r\\n\n  line 16\\r\\n\n- line 17\\r\\n\n+ line seventeen\\r\\n\n  line 18\\r\\n"), "\(message)")
        #expect(!message.contains("line 10"), "\(message)")
    }

    @Test func reRecordsOnlyFilesThatDiffer() {
        let file = golden()
        _ = file.check(request, recording: .missing)
        #expect(file.check(request, recording: .all) == nil)
        let changed = request + Array("!".utf8)
        #expect(file.check(changed, recording: .all)?.kind == .recorded)
        #expect(contents(of: file) == changed)
    }

    @Test(arguments: [
        ([:], GoldenFile.Recording.missing),
        (["RECORD_GOLDEN": "1"], .all),
        (["CI": "true"], .never),
        (["CI": "1", "RECORD_GOLDEN": "1"], .never),
        (["CI": "false", "RECORD_GOLDEN": "0"], .missing),
        (["CI": ""], .missing),
    ])
    func readsRecordingFromTheEnvironment(environment: [String: String], expected: GoldenFile.Recording) {
        #expect(GoldenFile.Recording.environment(environment) == expected)
    }

    @Test func keepsFilesInSnapshotsBesideTheTestFile() {
        let file = GoldenFile(named: "upload.http", testFilePath: "/p/Tests/AppTests/UploadTests.swift", testName: "sendsPhoto()")
        #expect(file.url.path == "/p/Tests/AppTests/__Snapshots__/UploadTests/sendsPhoto.upload.http")
    }

    @Test func reportsAMismatchToTheRunningTest() {
        // Under /dev/null, a file, nothing can exist or be recorded: a failure whatever
        // the environment or user, which must reach this test as an issue.
        withKnownIssue {
            expectGolden([1, 2, 3], named: "absent-\(UUID().uuidString).bin", filePath: "/dev/null/GoldenFileTests.swift")
        }
    }
}
