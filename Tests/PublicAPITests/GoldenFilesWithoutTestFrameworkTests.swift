import Foundation
import Testing

/// A program that is not a test uses golden files through the
/// HTTPBodyGoldenFiles product (`Samples/GoldenCheck`, built beside this
/// bundle) and links neither XCTest nor Testing, which HTTPBodyTesting's
/// `expectGolden` needs.
@Suite struct GoldenFilesWithoutTestFrameworkTests {
    /// The test bundle's folder, where `swift build` puts the executables.
    static let buildFolder = URL(filePath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()

    /// The shared libraries `binary` names as needed (`readelf -d`).
    static func neededLibraries(of binary: URL) throws -> [String] {
        let output = try run("/usr/bin/readelf", ["-d", binary.path]).output
        return output.split(separator: "\n").compactMap { line in
            guard line.contains("(NEEDED)"), let open = line.firstIndex(of: "["), let close = line.lastIndex(of: "]") else { return nil }
            return String(line[line.index(after: open)..<close])
        }
    }

    static func run(_ executable: String, _ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(filePath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    static func linksATestFramework(_ libraries: [String]) -> Bool {
        libraries.contains { $0.hasPrefix("libXCTest") || $0.hasPrefix("libTesting") || $0.hasPrefix("lib_Testing") }
    }

    @Test("golden-check, built on HTTPBodyGoldenFiles, needs neither libXCTest nor libTesting")
    func aNonTestProgramLinksNoTestFramework() throws {
        let program = Self.buildFolder.appending(path: "golden-check")
        let libraries = try Self.neededLibraries(of: program)
        #expect(libraries.contains { $0.hasPrefix("libswiftCore") }, "readelf found nothing: \(libraries)")
        #expect(!Self.linksATestFramework(libraries), "\(libraries)")
        // The same check sees them where they are: this test bundle.
        let bundle = try #require(try FileManager.default.contentsOfDirectory(atPath: Self.buildFolder.path).first { $0.hasSuffix(".xctest") })
        #expect(Self.linksATestFramework(try Self.neededLibraries(of: Self.buildFolder.appending(path: bundle))))
    }

    @Test("golden-check passes equal bytes and prints the diff of different ones")
    func theProgramComparesAndReports() throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "golden-check-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let golden = folder.appending(path: "golden.http"), same = folder.appending(path: "same.http"), other = folder.appending(path: "other.http")
        try Data("POST /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8).write(to: golden)
        try Data("POST /a HTTP/1.1\r\nHost: h\r\n\r\n".utf8).write(to: same)
        try Data("POST /a HTTP/1.1\r\nHost: i\r\n\r\n".utf8).write(to: other)
        let program = Self.buildFolder.appending(path: "golden-check").path
        #expect(try Self.run(program, [golden.path, same.path]).status == 0)
        let differing = try Self.run(program, [golden.path, other.path])
        #expect(differing.status == 1)
        #expect(differing.output.contains("- Host: h\\r\\n\n+ Host: i\\r\\n"), "\(differing.output)")
        #expect(try Self.run(program, [folder.appending(path: "absent.http").path, same.path]).status == 1)
    }
}
