import Foundation

/// The Python that runs the test servers written in Python.
///
/// `UPLOADER_TEST_PYTHON` names an interpreter that already has the packages
/// (a path, relative to the package root or absolute). Without it, the first
/// test that needs a server runs `Scripts/test-python.sh`, which makes a
/// virtual environment under `.build/test-python` and installs
/// `Tests/Servers/requirements.txt` into it from PyPI, once: `swift test` on a
/// fresh clone needs nothing else.
public enum TestPython {
    /// The one run of the script for this process: every test that needs a
    /// server awaits it. It runs on a thread of its own, as pip may take a
    /// minute, and blocking the two threads of the concurrency pool that long
    /// would stall every other test of the run.
    private static let provisioning = Task { () async throws -> String in
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { () throws(TestHTTPServerError) -> String in try provision() }.mapError { $0 as any Error }) }.start()
        }
    }

    /// The interpreter with the test servers' packages (aiohttp-tus, moto, botocore),
    /// installing them on first use; a test that needs them fails, never skips.
    public static func withServerPackages() async throws -> String {
        if let configured = ProcessInfo.processInfo.environment["UPLOADER_TEST_PYTHON"], !configured.isEmpty {
            let path = configured.hasPrefix("/") ? configured : TestPackage.root.appending(path: configured).path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw TestHTTPServerError(description: "UPLOADER_TEST_PYTHON is \(configured), which is no executable; unset it to let the tests make their own environment (Scripts/test-python.sh)")
            }
            return path
        }
        return try await provisioning.value
    }

    /// An interpreter for scripts that need only the standard library (the
    /// fault proxy): `python3` on `PATH`.
    public static func any() -> (executable: String, arguments: [String]) {
        ("/usr/bin/env", ["python3"])
    }

    /// Runs `Scripts/test-python.sh`, whose last line is the interpreter's path once
    /// the environment is there; what it printed before that goes to standard
    /// error, and becomes the error when it fails.
    private static func provision() throws(TestHTTPServerError) -> String {
        let script = TestPackage.root.appending(path: "Scripts/test-python.sh")
        let process = Process()
        process.executableURL = script
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw TestHTTPServerError(description: "cannot run \(script.path): \(error.localizedDescription)")
        }
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        var lines = String(decoding: printed, as: UTF8.self).split(separator: "\n").map(String.init)
        guard process.terminationStatus == 0, let python = lines.popLast() else {
            throw TestHTTPServerError(description: "The test servers' Python could not be made (Scripts/test-python.sh, exit \(process.terminationStatus)):\n\(lines.suffix(8).joined(separator: "\n"))")
        }
        if !lines.isEmpty { FileHandle.standardError.write(Data((lines.joined(separator: "\n") + "\n").utf8)) }
        return python
    }
}
