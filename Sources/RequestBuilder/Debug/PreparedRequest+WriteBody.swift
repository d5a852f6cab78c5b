public import Foundation
import HTTPBody

extension PreparedRequest {
    /// Writes the body's bytes to a file, a chunk at a time, so that the
    /// `--data-binary @file` of ``curlCommand(bodyFile:inlineBodyLimit:)`` can
    /// send exactly what this request would. A request without a body writes
    /// an empty file. Memory use is one chunk, whatever the body's size.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) naming
    ///   the file when it cannot be written or the body cannot be read.
    public func writeBody(to url: URL) async throws(RequestError) {
        let path = url.path(percentEncoded: false)
        guard FileManager.default.createFile(atPath: path, contents: nil) else {
            throw RequestError.invalidRequest("Cannot create \(path) to hold the request body")
        }
        do {
            let handle = try FileHandle(forWritingTo: url)
            defer { try? handle.close() }
            guard let body else { return }
            for try await chunk in body.chunks() {
                try handle.write(contentsOf: chunk)
            }
        } catch {
            throw RequestError.invalidRequest("Cannot write the request body to \(path): \(error)", underlying: error)
        }
    }
}
