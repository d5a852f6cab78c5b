import Foundation
import Testing
import TestSupport

/// The uploader types a part libmagic names from the magic files libmagic
/// itself would read: `MAGIC` names them, compiled or in text, as for file(1).
/// (The library maps a compiled database once for all its handles and lets
/// libmagic load anything else; a process's environment is its own, so each
/// case is a run of the binary.)
@Suite struct LocalMagicTests {
    /// A rule no system database has, and a file it names; the bytes are not
    /// text, so the standard sniffer asks libmagic.
    static let rule = "0\tstring\tSWIFTMAGICTEST\tSwift magic test\n!:mime\tapplication/x-swift-magic-test\n"
    static let content: [UInt8] = Array("SWIFTMAGICTEST".utf8) + [0x00, 0x01, 0x02, 0xFF, 0xFE]

    func partHeaders(_ arguments: [String], magic: String) async throws -> String {
        let result = try await UploaderProcess.run(["--dry-run", "localhost:8080/"] + arguments, environment: ["MAGIC": magic])
        #expect(result.status == 0, "\(result.standardError)")
        return result.outputText
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/file")))
    func magicNamesTheFilesLibmagicReads() async throws {
        let folder = try ScratchFolder()
        let local = try folder.file("local", Self.rule)
        let sample = try folder.file("sample", Self.content)
        // file(1) compiles the rule to local.mgc, in its working directory.
        let compile = try await UploaderProcess.runShell("/usr/bin/file -C -m local", currentDirectory: folder.url)
        try #require(compile.status == 0, "\(compile.standardError)")
        let compiled = folder.url.appending(path: "local.mgc").path
        try #require(FileManager.default.fileExists(atPath: compiled))

        // In text (libmagic loads it), and compiled (mapped), the rule names the file.
        #expect(try await partHeaders(["file@\(sample)"], magic: local).contains("Content-Type: application/x-swift-magic-test\r\n"))
        #expect(try await partHeaders(["file@\(sample)"], magic: compiled).contains("Content-Type: application/x-swift-magic-test\r\n"))
        // MAGIC replaces the system's database: with the one rule alone, an
        // ELF executable is no longer named.
        var elf: [UInt8] = [0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00] + [UInt8](repeating: 0, count: 8)
        elf += [0x02, 0x00, 0x3E, 0x00, 0x01, 0x00, 0x00, 0x00] + [UInt8](repeating: 0xA5, count: 1000)
        let executable = try folder.file("program", elf)
        let alone = try await partHeaders(["file@\(executable)"], magic: compiled)
        #expect(!alone.contains("application/x-executable"))
        #expect(alone.contains("Content-Type: application/octet-stream\r\n"))
    }
}
