import Foundation
import HTTPBody

/// What the golden files of gzipped bodies were recorded with, and a decoder
/// of gzip that shares no code with either compressor.
public enum GzipGoldens {
    /// The deflate library whose bytes the gzip goldens hold.
    public static let recordedWith = "libdeflate 1.14"

    /// Why this build cannot give the goldens' exact bytes (another library
    /// or version deflates), or `nil` when it should.
    public static var engineMismatch: String? {
        gzipDeflateEngine == recordedWith
            ? nil
            : "the gzip goldens hold \(recordedWith)'s bytes and this build deflates with \(gzipDeflateEngine): the exact bytes differ, the decoded bodies are still checked"
    }

    /// `compressed` decoded by Python's zlib as one gzip member (window bits
    /// 31, which stops after the first member): the member must end exactly
    /// where the bytes do.
    public static func gunzipWithPython(_ compressed: [UInt8]) throws -> [UInt8] {
        let script = """
            import sys, zlib
            d = zlib.decompressobj(31)
            out = d.decompress(sys.stdin.buffer.read())
            if not d.eof or d.unused_data:
                sys.exit("not exactly one gzip member")
            sys.stdout.buffer.write(out)
            """
        let folder = try TemporaryFolder("GzipGoldens")
        let file = folder.appending(path: "body.gz")
        try Data(compressed).write(to: file)
        let python = TestPython.any()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python.executable)
        process.arguments = python.arguments + ["-c", script]
        let output = folder.appending(path: "body")
        try Data().write(to: output)
        let errors = Pipe()
        process.standardInput = try FileHandle(forReadingFrom: file)
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = errors
        try process.run()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let decoded = try Data(contentsOf: output)
        guard process.terminationStatus == 0 else {
            throw TestHTTPServerError(description: "Python's zlib refused the gzip body: \(String(decoding: message, as: UTF8.self))")
        }
        return Array(decoded)
    }
}
