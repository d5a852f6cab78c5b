public import Foundation
public import SystemPackage

extension RequestBody {
    /// A body streamed from a file on disk, one chunk at a time.
    ///
    /// The length comes from the file system, so the file is not read until the
    /// body is. If the file's size changes before or while it is read, reading
    /// fails with ``RequestBodyError/Code/fileChangedSize`` rather than produce
    /// a body that disagrees with its `Content-Length`.
    ///
    /// - Parameters:
    ///   - url: A `file:` URL of a regular file.
    ///   - contentType: The type to declare; when `nil`, sniffed from the file's
    ///     first bytes by ``StandardMediaTypeSniffer``, else `application/octet-stream`.
    /// - Throws: ``RequestBodyError`` naming the file when it is missing, a
    ///   directory, or unreadable.
    public static func file(at url: URL, contentType: MediaType? = nil) throws(RequestBodyError) -> RequestBody {
        try file(at: FileLocation(url), contentType: contentType)
    }

    /// A body streamed from the file at `path`, named byte for byte (a name
    /// that is not UTF-8 included); otherwise as ``file(at:contentType:)-(URL,_)``.
    public static func file(atPath path: FilePath, contentType: MediaType? = nil) throws(RequestBodyError) -> RequestBody {
        try file(at: FileLocation(path), contentType: contentType)
    }

    private static func file(at location: FileLocation, contentType: MediaType?) throws(RequestBodyError) -> RequestBody {
        let length: Int64
        let type: MediaType
        if let contentType {
            length = try FileStatus(location).size
            type = contentType
        } else {
            let file = try FileReader(measuring: location)  // sized and sampled through one open
            length = file.expectedLength
            type = try StandardMediaTypeSniffer().mediaType(of: file, at: location) ?? .octetStream
        }
        var body = RequestBody(contentType: type, length: length, isReplayable: true) {
            try FileChunkSource(reader: FileReader(location, expectedLength: length))
        }
        body.file = location
        body.filesRead = [BodyFile(location: location, length: length)]
        return body
    }
}

/// Reads a file straight into each chunk's storage: one copy, kernel to chunk.
struct FileChunkSource: ChunkSource {
    let reader: FileReader

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        try reader.readChunk(maximumLength: maximumLength, as: Storage.self).map { BodyChunk($0) }
    }

    /// Seeks: no bytes are read.
    mutating func skip(_ count: Int64) async throws -> Int64 {
        let skipped = min(max(0, count), reader.remaining)
        try reader.skip(skipped)
        return skipped
    }
}
