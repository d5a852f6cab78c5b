import Foundation

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

    /// How many 128 KiB blocks of the body are compressed at once, each on a
    /// thread of the body's own (as `pigz -p`); 1 compresses on the reading
    /// task alone, and values below 1 count as 1.
    ///
    /// The body is cut into blocks by its bytes alone, and each block is
    /// primed with the 32 KiB before it, so the output is the same bytes
    /// whatever this is, and within a fraction of a percent of one zlib
    /// stream's size. Each unit costs about 700 KB: a zlib stream and two
    /// blocks' input and output (one being compressed, one queued), and
    /// three more blocks are queued (600 KB) when this is above 1.
    public var concurrency: Int

    /// The default ``concurrency``: the active processor count, at most 4.
    public static var defaultConcurrency: Int {
        min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Creates options; the defaults give a deterministic header.
    public init(
        level: Int = 6,
        modificationTime: UInt32 = 0,
        operatingSystem: UInt8 = 255,
        concurrency: Int = GzipOptions.defaultConcurrency
    ) {
        self.level = level
        self.modificationTime = modificationTime
        self.operatingSystem = operatingSystem
        self.concurrency = concurrency
    }
}
