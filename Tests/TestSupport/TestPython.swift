import Foundation

/// The Python that runs the test servers written in Python.
///
/// `.ci/run` makes `.venv-test` at the package root and installs
/// `Tests/Servers/requirements.txt` into it; `UPLOADER_TEST_PYTHON` names
/// another interpreter (a path, relative to the package root or absolute).
public enum TestPython {
    /// The command that installs the packages, for failure messages.
    public static let setupCommand =
        "python3 -m venv .venv-test && .venv-test/bin/pip install -r Tests/Servers/requirements.txt"

    /// The interpreter with the test servers' packages (aiohttp-tus, moto, botocore), or an
    /// error that says how to install them: a test that needs them fails, never skips.
    public static func withServerPackages() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["UPLOADER_TEST_PYTHON"], !configured.isEmpty {
            let path = configured.hasPrefix("/") ? configured : TestPackage.root.appending(path: configured).path
            guard FileManager.default.isExecutableFile(atPath: path) else {
                throw TestHTTPServerError(description: "UPLOADER_TEST_PYTHON is \(configured), which is no executable; run .ci/run, or: \(setupCommand)")
            }
            return path
        }
        let venv = TestPackage.root.appending(path: ".venv-test/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venv) else {
            throw TestHTTPServerError(description: "No Python with the test servers' packages at \(venv): run .ci/run once, or from the package root: \(setupCommand)")
        }
        return venv
    }

    /// An interpreter for scripts that need only the standard library (the
    /// fault proxy): the test one when it is there, else `python3` on `PATH`.
    public static func any() -> (executable: String, arguments: [String]) {
        if let python = try? withServerPackages() { return (python, []) }
        return ("/usr/bin/env", ["python3"])
    }
}
