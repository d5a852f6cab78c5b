import Testing
import UploaderItems
@testable import uploader

/// `--netrc`'s reader on the file shapes curl reads: entries across lines,
/// quoted values, `default`, `account` and `macdef` skipped.
@Suite struct NetrcTests {
    @Test func readsEntriesAsCurlDoes() {
        let netrc = Netrc(parsing: """
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
        #expect(Netrc(parsing: "machine a login x").entry(forHost: "b") == nil)
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
