/// How ``RequestBody/gzipped(_:)`` compresses a body and fills in the gzip
/// header (RFC 1952, section 2.3).
///
/// The header carries no clock or platform by default, so the same body
/// compresses to the same bytes on every machine, which golden-file tests rely on.
public struct GzipOptions: Sendable, Hashable {
    /// The deflate level, 0 (store only) through 9 (smallest); values outside
    /// that range are clamped. 6 is zlib's balance of speed and size.
    public var level: Int

    /// The header's MTIME field, seconds since 1970; 0 means "no time stamp".
    public var modificationTime: UInt32

    /// The header's OS field; 255 means "unknown", the same on every platform.
    public var operatingSystem: UInt8

    /// Creates options; the defaults give a deterministic header.
    public init(level: Int = 6, modificationTime: UInt32 = 0, operatingSystem: UInt8 = 255) {
        self.level = level
        self.modificationTime = modificationTime
        self.operatingSystem = operatingSystem
    }
}
