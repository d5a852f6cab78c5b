import Foundation

/// The folder uploads are stored in: an upload's body is written under
/// `.partial/` while it arrives and moved, with its head, into a folder of
/// its own when its last byte has come.
struct UploadStore: Sendable {
    let directory: URL

    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: partialDirectory, withIntermediateDirectories: true)
    }

    private var partialDirectory: URL { directory.appending(path: ".partial", directoryHint: .isDirectory) }

    /// A new, empty file for a body that is starting to arrive.
    func makePartialFile() throws -> (url: URL, handle: FileHandle) {
        let url = partialDirectory.appending(path: UUID().uuidString)
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
            throw UploadStoreError(description: "cannot create \(url.path)")
        }
        return (url, try FileHandle(forWritingTo: url))
    }

    /// Moves a finished body into `upload-<UUID>/body` and writes the upload's
    /// summary beside it as `request.json`.
    func finish(partialFile: URL, summary: StoredUpload) throws -> StoredUpload {
        var summary = summary
        summary.upload = "upload-\(UUID().uuidString)"
        let folder = directory.appending(path: summary.upload, directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: partialFile, to: folder.appending(path: "body"))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try encoder.encode(summary).write(to: folder.appending(path: "request.json"))
        return summary
    }
}

/// Why the store could not keep an upload.
struct UploadStoreError: Error, CustomStringConvertible {
    let description: String
}
