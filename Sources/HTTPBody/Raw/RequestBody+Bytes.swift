public import Foundation

extension RequestBody {
    /// A body with no bytes, sent with `Content-Length: 0`.
    public static let empty = RequestBody.bytes([], contentType: nil)

    /// A body of bytes already in memory.
    ///
    /// - Parameters:
    ///   - bytes: The body's bytes, sent as they are.
    ///   - contentType: The type to declare; `application/octet-stream` by default.
    public static func bytes(_ bytes: [UInt8], contentType: MediaType? = .octetStream) -> RequestBody {
        RequestBody(contentType: contentType, length: Int64(bytes.count), isReplayable: true) {
            MemoryChunkSource(bytes: bytes)
        }
    }

    /// A body of `Data` already in memory.
    public static func data(_ data: Data, contentType: MediaType? = .octetStream) -> RequestBody {
        .bytes([UInt8](data), contentType: contentType)
    }

    /// A body of text sent as UTF-8, `text/plain; charset=utf-8` by default.
    public static func text(_ text: String, contentType: MediaType? = .plainText) -> RequestBody {
        .bytes(Array(text.utf8), contentType: contentType)
    }
}

/// Hands out slices of an in-memory byte array.
struct MemoryChunkSource: ChunkSource {
    let bytes: [UInt8]
    var offset = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Copies each slice once, straight into the caller's storage.
    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        guard offset < bytes.count else { return nil }
        let end = min(bytes.count, offset + maximumLength)
        defer { offset = end }
        if offset == 0, end == bytes.count { return BodyChunk(.holding(bytes)) }  // an array shares the storage
        return BodyChunk(bytes[offset..<end].withUnsafeBytes { slice in
            Storage(capacity: slice.count) { buffer in
                buffer.copyMemory(from: slice)
                return slice.count
            }
        })
    }

    /// Moves the index: nothing is copied.
    mutating func skip(_ count: Int64) async throws -> Int64 {
        let step = Int(min(max(0, count), Int64(bytes.count - offset)))
        offset += step
        return Int64(step)
    }
}
