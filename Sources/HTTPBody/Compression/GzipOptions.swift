import Foundation

/// How ``RequestBody/gzipped(_:)`` compresses a body and fills in the gzip
/// header (RFC 1952, section 2.3).
///
/// The header carries no clock or platform by default, so the same body
/// compresses to the same bytes on every machine, which golden-file tests rely on.
public struct GzipOptions: Sendable, Hashable {
    /// The deflate level, 0 (store only) through 9 (smallest); values outside
    /// that range are clamped. 1-9 are libdeflate's levels of those numbers
    /// on Linux (at 6, about twice zlib's speed) and zlib's elsewhere; 6 is
    /// the balance of speed and size for both.
    public var level: Int

    /// The header's MTIME field, seconds since 1970; 0 means "no time stamp".
    public var modificationTime: UInt32

    /// The header's OS field; 255 means "unknown", the same on every platform.
    public var operatingSystem: UInt8

    /// How many 128 KiB blocks of the body are compressed at once, each on a
    /// thread of the body's own (as `pigz -p`); 1 compresses on the reading
    /// task alone, and values below 1 count as 1.
    ///
    /// The body is cut into blocks by its bytes alone, so the output is the
    /// same bytes whatever this is. With zlib each block is primed with the
    /// 32 KiB before it, within a fraction of a percent of one stream's
    /// size; libdeflate takes no dictionary, so its blocks are independent
    /// and lose the matches across each block edge (2-4 % on text beside
    /// pigz at the same level). Each unit costs about 1.2 MB with libdeflate
    /// (its compressor, 670 KB) or 700 KB with zlib, with two blocks' input
    /// and output (one being compressed, one queued), and three more blocks
    /// are queued (600 KB) when this is above 1.
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
