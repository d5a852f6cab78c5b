public import Foundation
import HTTPBody
import SystemPackage

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
        // A descriptor rather than FileHandle, which on Linux would link the
        // whole of Foundation (see `ConditionLock` in HTTPBody).
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(FilePath(path), .writeOnly, options: [.create, .truncate], permissions: FilePermissions(rawValue: 0o666))
        } catch {
            throw RequestError.invalidRequest("Cannot create \(path) to hold the request body")
        }
        defer { try? file.close() }
        do {
            guard let body else { return }
            for try await chunk in body.chunks() {
                _ = try chunk.withUnsafeBytes { try file.writeAll($0) }
            }
        } catch {
            throw RequestError.invalidRequest("Cannot write the request body to \(path): \(error)", underlying: error)
        }
    }
}
