public import Foundation

/// Where the package's own files are, for tests that run its servers and scripts.
public enum TestPackage {
    /// The package's root folder (this file is `Tests/TestSupport/TestPackage.swift`).
    public static let root: URL = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// An executable `swift build` made: beside the test bundle, else in `.build/debug`.
    public static func builtExecutable(named name: String) throws -> URL {
        let besideBundle = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent().appending(path: name)
        let inBuildFolder = root.appending(path: ".build/debug/\(name)")
        for candidate in [besideBundle, inBuildFolder] where FileManager.default.isExecutableFile(atPath: candidate.path) {
            return candidate
        }
        throw TestHTTPServerError(description: "\(name) is not built (looked for \(besideBundle.path) and \(inBuildFolder.path)); run swift build --build-tests")
    }

    /// A file of `Tests/Servers`.
    public static func serverScript(_ name: String) -> URL {
        root.appending(path: "Tests/Servers/\(name)")
    }
}
