import Foundation
import Testing
import UploaderItems
@testable import uploader

/// `--netrc`'s reader on the file shapes curl reads: entries across lines,
/// quoted values, `default`, `account` and `macdef` skipped.
@Suite struct NetrcTests {
    @Test func readsEntriesAsCurlDoes() throws {
        let netrc = try Netrc(parsing: """
            machine Files.Example.com login ann password "a \\"quoted\\" pass"
            macdef init
            machine evil.example login mallory password macro

            machine api.example.com
                account ignored
                login bob
                password b0b
            default login anyone password anything
            """)
        #expect(netrc.entry(forHost: "files.example.com") == .init(machine: "files.example.com", login: "ann", password: "a \"quoted\" pass"))
        #expect(netrc.entry(forHost: "API.example.com") == .init(machine: "api.example.com", login: "bob", password: "b0b"))
        // The macro's body is not an entry: evil.example gets the default.
        #expect(netrc.entry(forHost: "evil.example") == .init(machine: nil, login: "anyone", password: "anything"))
        #expect(try Netrc(parsing: "machine a login x").entry(forHost: "b") == nil)
    }

    /// A line starting with `#` is left out, and so is the rest of a line
    /// from a `#` token where a keyword is due: a login commented out after
    /// the real one is never sent instead of it.
    @Test func commentsAreNeverRead() throws {
        let netrc = try Netrc(parsing: """
            # machine host.example login eve password x
            machine host.example login alice password "p#1" # login bob password old
              # login bob password old
                #login carol
            machine hash.example login dave password #start
            """)
        #expect(netrc.entry(forHost: "host.example") == .init(machine: "host.example", login: "alice", password: "p#1"))
        // Where a value is due, a token starting with `#` is the value (curl 8.16).
        #expect(netrc.entry(forHost: "hash.example")?.password == "#start")
    }

    @Test func keywordsAreCaseInsensitiveAndQuotedOnesAreValues() throws {
        let netrc = try Netrc(parsing: "MACHINE h.example LOGIN \"machine\" Password \"a\\tb\"\r\nDefault login d password e\r\n")
        #expect(netrc.entry(forHost: "h.example") == .init(machine: "h.example", login: "machine", password: "a\tb"))
        #expect(netrc.entry(forHost: "other") == .init(machine: nil, login: "d", password: "e"))
    }

    /// curl takes the first entry, in the file's order, that is the host's
    /// or `default` and holds a login or a password; a macro ends the entry
    /// before it, and its body, to the next empty line, is never read.
    @Test func defaultAndMacdefAsCurl() throws {
        let netrc = try Netrc(parsing: """
            machine a.example
            machine b.example login bob macdef upload
            machine c.example login mallory password macro
            cd /tmp

            machine c.example login carol password c
            default login anyone password anything
            machine d.example login late password late
            """)
        // a.example's entry holds nothing: the next one that applies, default.
        #expect(netrc.entry(forHost: "a.example")?.login == "anyone")
        #expect(netrc.entry(forHost: "b.example") == .init(machine: "b.example", login: "bob", password: nil))
        #expect(netrc.entry(forHost: "c.example")?.login == "carol")
        // default comes first in the file: curl stops there.
        #expect(netrc.entry(forHost: "d.example")?.login == "anyone")
        #expect(netrc.entries.contains { $0.login == "mallory" } == false)
    }

    @Test func aQuoteThatNeverEndsNamesItsLine() throws {
        #expect(throws: Netrc.SyntaxError(line: 2)) { try Netrc(parsing: "machine a\nlogin \"open") }
        let folder = FileManager.default.temporaryDirectory.appending(path: "netrc-\(UUID().uuidString)")
        try Data("machine a login \"x".utf8).write(to: folder)
        defer { try? FileManager.default.removeItem(at: folder) }
        let error = #expect(throws: InputError.self) { try Netrc.load(path: folder.path, option: "--netrc-file", required: true) }
        #expect(error?.description == "--netrc-file: the file \(folder.path) has a quoted value on line 1 that never ends (a \" is missing)")
    }

    @Test func aMissingFileNamedByNetrcFileIsAnError() {
        let error = #expect(throws: InputError.self) { try Netrc.load(path: "/nonexistent/netrc", option: "--netrc-file", required: true) }
        #expect(error?.description == "--netrc-file: the file /nonexistent/netrc cannot be read: No such file or directory")
    }

    @Test func theFileIsNETRCElseTheHomeFolders() {
        #expect(Netrc.path(environment: ["NETRC": "/etc/n", "HOME": "/home/a"]) == "/etc/n")
        #expect(Netrc.path(environment: ["NETRC": "", "HOME": "/home/a"]) == "/home/a/.netrc")
    }

    @Test func aMissingFileSendsNothingAndAFolderIsNamedAsOne() throws {
        #expect(try Netrc.load(path: "/nonexistent-netrc-folder/.netrc") == nil)
        let error = #expect(throws: InputError.self) { try Netrc.load(path: "/tmp") }
        #expect(error?.description == "--netrc: the file /tmp cannot be read: Is a directory")
    }

    @Test func aFileThatIsNotRegularIsReadAsCurlReadsIt() throws {
        // curl reads --netrc-file with fopen, so a pipe works: `NETRC=<(…)`.
        let netrc = try #require(try Netrc.load(path: "/dev/null"))
        #expect(netrc.entry(forHost: "example.com") == nil)
    }

    @Test func aSourceThatNeverEndsIsRefusedPastOneMebibyte() throws {
        let error = #expect(throws: InputError.self) { try Netrc.load(path: "/dev/zero") }
        #expect(error?.description == "--netrc: the file /dev/zero is larger than 1 MiB, too large for a netrc file")
    }
}
