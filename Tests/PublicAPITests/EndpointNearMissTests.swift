// Members spelled near the requirements — another name, another type — must
// not compile: a protocol default taking their place unseen is the bug this
// design removes. Each case is type-checked by the compiler that builds the
// package, against the modules this test run was built with.

import Foundation
import Testing

@Suite("Near-miss endpoint members fail to compile")
struct EndpointNearMissTests {
    /// The members every case shares; each case adds the rest.
    static let commonMembers = """
        typealias Response = Data
        var baseURL: URL { URL(filePath: "/") }
        """

    static let nearMisses: [(name: String, members: String)] = [
        ("headerFields instead of headers", """
            var path: [String] { [] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headerFields: HTTPFields { get throws { [:] } }
            """),
        ("headers of a type that cannot be header fields", """
            var path: [String] { [] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headers: [Int: String]? { nil }
            """),
        ("method as a String", """
            var path: [String] { [] }
            var method: String { "POST" }
            var task: HTTPTask { .plain }
            var headers: HTTPFields { [:] }
            """),
        ("path as one String (Moya's)", """
            var path: String { "/posts" }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headers: HTTPFields { [:] }
            """),
        ("no method at all", """
            var path: [String] { [] }
            var task: HTTPTask { .plain }
            var headers: HTTPFields { [:] }
            """),
    ]

    /// The required members, spelled right, for the cases that add one
    /// misspelt optional member.
    static let requiredMembers = """
        var path: [String] { [] }
        var method: HTTPRequest.Method { .get }
        var task: HTTPTask { .plain }
        var headers: HTTPFields { [:] }

        """

    /// Optional members misspelt (or spelt as Moya does): each would compile
    /// and be ignored unless the protocol traps it.
    static let misspellings: [(declaration: String, misspelt: String, meant: String)] = [
        ("var timout: TimeInterval? { 5 }", "timout", "timeout"),
        ("var timeoutInterval: TimeInterval { 5 }", "timeoutInterval", "timeout"),
        ("var acceptableStatuses: AcceptableStatus { .successful }", "acceptableStatuses", "acceptableStatus"),
        ("var validationType: Int { 0 }", "validationType", "acceptableStatus"),
        ("var header: [String: String]? { nil }", "header", "headers"),
        ("var headerField: HTTPFields { [:] }", "headerField", "headers"),
    ]

    @Test("A misspelt optional member is an error naming the member meant", arguments: misspellings.map(\.misspelt))
    func misspeltOptionalMemberNamesTheMemberMeant(misspelt: String) throws {
        let misspelling = try #require(Self.misspellings.first { $0.misspelt == misspelt })
        let result = try TypeCheck.run(endpointMembers: Self.commonMembers + "\n" + Self.requiredMembers + misspelling.declaration)
        #expect(result.status != 0)
        // One error line names both the member written and the one meant.
        let errors = result.output.split(separator: "\n").filter { $0.contains("error:") }
        #expect(
            errors.contains { $0.contains("'\(misspelling.misspelt)'") && $0.contains("'\(misspelling.meant)'") },
            "\(result.output)"
        )
    }

    @Test("A missing headers member is reported as the property, not as a nested type")
    func missingHeadersNamesTheProperty() throws {
        let result = try TypeCheck.run(endpointMembers: Self.commonMembers + """

            var path: [String] { [] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headerFields: HTTPFields { [:] }
            """)
        #expect(result.status != 0)
        #expect(result.output.contains("protocol requires property 'headers'"), "\(result.output)")
        #expect(!result.output.contains("nested type 'Headers'"), "\(result.output)")
    }

    @Test("A correct endpoint type-checks (the harness works)")
    func correctSpellingCompiles() throws {
        let result = try TypeCheck.run(endpointMembers: Self.commonMembers + """

            var path: [String] { [] }
            var method: HTTPRequest.Method { .get }
            var task: HTTPTask { .plain }
            var headers: [String: String]? { get throws { nil } }
            var timeout: TimeInterval? { 5 }
            var sampleData: Data { Data() }
            """)
        #expect(result.status == 0, "\(result.output)")
    }

    @Test("A near miss does not compile", arguments: nearMisses.map(\.name))
    func nearMissDoesNotCompile(name: String) throws {
        let members = try #require(Self.nearMisses.first { $0.name == name }).members
        let result = try TypeCheck.run(endpointMembers: Self.commonMembers + "\n" + members)
        #expect(result.status != 0)
        #expect(result.output.contains("does not conform to protocol 'Endpoint'"), "\(result.output)")
    }
}

/// Runs `swiftc -typecheck` on a file declaring one endpoint.
enum TypeCheck {
    struct Result {
        var status: Int32
        var output: String
    }

    static func run(endpointMembers: String) throws -> Result {
        let source = """
            import Foundation
            import HTTPTypes
            import RequestBuilder

            struct Probe: Endpoint {
            \(endpointMembers)
            }
            """
        let folder = FileManager.default.temporaryDirectory.appending(path: "near-miss-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appending(path: "Probe.swift")
        try Data(source.utf8).write(to: file)

        let build = try BuildFolders.current()
        var arguments = ["swiftc", "-swift-version", "6", "-typecheck", "-I", build.modules.path]
        for map in build.moduleMaps {
            arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"]
        }
        arguments.append(file.path)

        let process = Process()
        process.executableURL = URL(filePath: "/usr/bin/env")
        process.arguments = arguments
        // The Swift driver leaves a `TemporaryDirectory.*` in its TMPDIR on
        // every run; this one is the folder removed above.
        process.environment = ProcessInfo.processInfo.environment.merging(["TMPDIR": folder.path]) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }
}

/// Where this test run's build put the compiled modules, and the C module
/// maps they refer to.
struct BuildFolders {
    var modules: URL
    var moduleMaps: [URL]

    static func current() throws -> BuildFolders {
        // The test bundle sits in the build folder (`.build/debug/…xctest`).
        let executable = URL(filePath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        let buildFolder = executable.deletingLastPathComponent()
        let modules = buildFolder.appending(path: "Modules")
        let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        // The C modules the Swift modules import: ours (CCRC32's and
        // CDeflateWalk's maps are the ones SwiftPM writes for a target with an
        // include folder; CLibDeflate and CDeflateWalk on Linux only), and
        // swift-system's.
        var maps = [
            packageRoot.appending(path: "Sources/CMagic/module.modulemap"),
            packageRoot.appending(path: "Sources/CZlib/module.modulemap"),
            buildFolder.appending(path: "CCRC32.build/module.modulemap"),
        ]
        #if os(Linux)
        maps += [
            packageRoot.appending(path: "Sources/CLibDeflate/module.modulemap"),
            buildFolder.appending(path: "CDeflateWalk.build/module.modulemap"),
        ]
        #endif
        var folder = buildFolder
        while folder.path != "/" {
            let candidate = folder.appending(path: "checkouts/swift-system/Sources/CSystem/include/module.modulemap")
            if FileManager.default.fileExists(atPath: candidate.path) {
                maps.append(candidate)
                break
            }
            folder = folder.deletingLastPathComponent()
        }
        guard FileManager.default.fileExists(atPath: modules.path) else {
            throw BuildFolderError(description: "No Modules folder beside the test bundle at \(executable.path)")
        }
        return BuildFolders(modules: modules, moduleMaps: maps)
    }
}

struct BuildFolderError: Error, CustomStringConvertible {
    var description: String
}
