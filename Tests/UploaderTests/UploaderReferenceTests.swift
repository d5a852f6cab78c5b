import Foundation
import TestSupport
import Testing

/// `--help` and the man page as the installed binary prints them: USAGE
/// first, the options in the docs' groups, one list of exit statuses, and
/// the man page in the repository what `uploader --generate-manual` makes.
@Suite struct UploaderReferenceTests {
    @Test func helpStartsWithUsageAndGroupsTheOptions() async throws {
        let help = try await UploaderProcess.run(["--help"])
        #expect(help.status == 0)
        let text = help.outputText
        let order = ["OVERVIEW:", "USAGE: uploader [METHOD] URL", "REQUEST BODY:", "SENDING:", "OUTPUT:", "RESUMABLE UPLOADS:", "OBJECT STORES:", "TLS, PROXIES", "REQUEST ITEMS", "EXIT STATUS:", "EXAMPLES"]
        let positions = order.map { text.range(of: $0)?.lowerBound }
        #expect(!positions.contains(nil), "\(order.filter { text.range(of: $0) == nil })")
        #expect(positions.compactMap { $0 } == positions.compactMap { $0 }.sorted(), "sections out of order")
        #expect(!text.contains("OTHER OPTIONS"), "an option in no group")
        for status in ["0", "1", "2", "3", "4", "5", "130", "141", "143"] {
            #expect(text.contains("\n  \(status) "), "exit status \(status)")
        }
        #expect(text.contains("--progress, --no-progress"))
        #expect(try await UploaderProcess.run(["-h"]).outputText == text)
    }

    @Test func theManPageInTheRepositoryIsWhatTheBinaryMakes() async throws {
        let made = try await UploaderProcess.run(["--generate-manual"])
        #expect(made.status == 0)
        let page = TestPackage.root.appending(path: "docs/uploader.1")
        if ProcessInfo.processInfo.environment["RECORD_DOCS"] == "1" { try Data(made.standardOutput).write(to: page) }
        #expect(Array(try Data(contentsOf: page)) == made.standardOutput, "docs/uploader.1 differs from uploader --generate-manual: run with RECORD_DOCS=1")
        let text = made.outputText
        for section in [".SH NAME", ".SH SYNOPSIS", ".SH OPTIONS", ".SH ENVIRONMENT", ".SH FILES", ".SH EXIT STATUS", ".SH EXAMPLES"] {
            #expect(text.components(separatedBy: section + "\n").count == 2, "\(section) once")
        }
        #expect(!text.contains("EXIT STATUS:"), "the exit statuses twice")
        for status in [0, 1, 2, 3, 4, 5, 130, 141, 143] { #expect(text.contains(".B \(status)\n")) }
        if FileManager.default.isExecutableFile(atPath: "/usr/bin/groff") {
            let folder = try TemporaryFolder("manual")
            try Data(made.standardOutput).write(to: folder.appending(path: "uploader.1"))
            let checked = try await UploaderProcess.runShell("/usr/bin/groff -man -ww -z -Tutf8 '\(folder.appending(path: "uploader.1").path)'")
            #expect(checked.status == 0 && checked.standardError.isEmpty, "groff: \(checked.standardError)")
        }
    }
}
