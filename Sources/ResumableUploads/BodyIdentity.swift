public import Foundation
public import HTTPBody

/// What a body was when an upload began: its length, its content type (with
/// a multipart boundary), and each file it reads with the size and
/// modification time the file had.
///
/// A resumed upload regenerates its body and compares: any difference means
/// the bytes the server holds may not be the start of the bytes about to be
/// sent, and the upload is refused (``ResumableUploadError/Code/bodyChanged``)
/// rather than appended into a corrupt whole.
public struct BodyIdentity: Codable, Sendable, Hashable {
    /// A file the body reads.
    public struct File: Codable, Sendable, Hashable {
        /// The path, for people (bytes that are not UTF-8 shown as U+FFFD).
        public var path: String
        /// The path's bytes, exactly: what identifies the file.
        public var pathBytes: Data
        /// The size in bytes.
        public var size: Int64
        /// The modification time, seconds since 1970.
        public var modificationSeconds: Int64
        /// The nanoseconds of the modification time.
        public var modificationNanoseconds: Int64
        /// The status change time (`ctime`), seconds since 1970: a file
        /// rewritten in place whose modification time was set back still
        /// has a new one. `nil` in a state saved before it was recorded.
        public var changeSeconds: Int64?
        /// The nanoseconds of the status change time.
        public var changeNanoseconds: Int64?
        /// The file's inode number: a file replaced by another of the same
        /// name has another. `nil` in a state saved before it was recorded.
        public var inode: UInt64?
    }

    /// The body's length in bytes.
    public var length: Int64
    /// The `Content-Type` the body declares, boundary included; `nil` for none.
    public var contentType: String?
    /// The files the body reads, in order.
    public var files: [File]

    /// The multipart boundary, when the body is a multipart form: build the
    /// body again with `.constant(boundary)` to resume it.
    public var boundary: String? {
        contentType.flatMap(MediaType.init)?[parameter: "boundary"]
    }

    /// The identity of `body` as it is now, reading each file's status.
    ///
    /// - Throws: ``ResumableUploadError`` (``ResumableUploadError/Code/bodyNotResumable``)
    ///   when the body is read once or its length is unknown; a file that
    ///   cannot be looked up fails with the `RequestBodyError` naming it.
    public init(of body: RequestBody) throws {
        guard body.isReplayable, let length = body.length else {
            throw ResumableUploadError.bodyNotResumable(
                body.isReplayable
                    ? "its length is not known until it is read (a stream or a gzip-compressed body)"
                    : "it is read once (standard input or another stream), so the bytes before a resume point cannot be produced again"
            )
        }
        self.length = length
        self.contentType = body.contentType?.description
        self.files = try body.filesRead.map { file in
            let status = try FileStatus(file.location)
            return File(
                path: file.location.description,
                pathBytes: Data(file.location.bytes),
                size: status.size,
                modificationSeconds: status.modificationTime.seconds,
                modificationNanoseconds: status.modificationTime.nanoseconds,
                changeSeconds: status.changeTime.seconds,
                changeNanoseconds: status.changeTime.nanoseconds,
                inode: status.fileID.inode
            )
        }
    }

    /// The identity of an empty request body.
    static let empty = BodyIdentity(length: 0, contentType: nil, files: [])

    private init(length: Int64, contentType: String?, files: [File]) {
        self.length = length
        self.contentType = contentType
        self.files = files
    }

    /// What differs between the body an upload began with (`self`) and the
    /// body it would send now, in a sentence; `nil` when they are the same.
    package func difference(from current: BodyIdentity) -> String? {
        for (saved, now) in zip(files, current.files) where saved.pathBytes == now.pathBytes {
            if saved.size != now.size {
                return "\(saved.path) is now \(now.size) bytes; it was \(saved.size) when the upload began"
            }
            if saved.modificationSeconds != now.modificationSeconds || saved.modificationNanoseconds != now.modificationNanoseconds {
                return "\(saved.path) was modified after the upload began"
            }
            // Compared only when the saved state recorded them.
            if let inode = saved.inode, inode != now.inode {
                return "\(saved.path) was replaced by another file after the upload began"
            }
            if let seconds = saved.changeSeconds, seconds != now.changeSeconds || saved.changeNanoseconds != now.changeNanoseconds {
                return "\(saved.path) was changed after the upload began (its status change time differs)"
            }
        }
        if files.map(\.pathBytes) != current.files.map(\.pathBytes) {
            return "the body reads other files than when the upload began (\(files.map(\.path)) then, \(current.files.map(\.path)) now)"
        }
        if contentType != current.contentType {
            if let boundary, current.boundary != nil {
                return "the body's Content-Type differs (its boundary was \(boundary.debugDescription); build the form with that boundary to resume)"
            }
            return "the body's Content-Type was \(contentType ?? "none") and is now \(current.contentType ?? "none")"
        }
        if length != current.length {
            return "the body is now \(current.length) bytes; it was \(length) when the upload began"
        }
        return nil
    }
}
