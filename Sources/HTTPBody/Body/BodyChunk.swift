/// One chunk of a body: its bytes, in the storage the reader asked for, and
/// whether they are worth compressing.
public struct BodyChunk<Storage: ChunkStorage> {
    /// The chunk's bytes.
    public var storage: Storage
    /// Whether the bytes are worth compressing: `false` for a JPEG, a zip or
    /// other already-compressed data, which a gzip body then stores instead
    /// of deflating again.
    public var isCompressible: Bool

    /// A chunk of `storage`'s bytes.
    public init(_ storage: Storage, isCompressible: Bool = true) {
        self.storage = storage
        self.isCompressible = isCompressible
    }
}

extension BodyChunk: Sendable where Storage: Sendable {}
