/// What deflates a body's blocks: libdeflate where it is linked (Linux),
/// about twice zlib's speed at a smaller size, and zlib elsewhere.
///
/// Both have `init(level:)`, `compress(_:)` giving a block's data ending on
/// a byte boundary unless the block is the body's last, and
/// `primesBlocks`, whether a block's dictionary is used (zlib's) or not
/// (libdeflate has no preset dictionary, so its blocks are independent and
/// ``GzipBlockReader`` keeps no history for them).
#if canImport(CLibDeflate)
typealias BlockCompressor = LibDeflateCompressor
#else
typealias BlockCompressor = Deflater
#endif

/// The library that deflates gzipped bodies in this build and its version
/// ("libdeflate 1.14"): golden files of gzipped bodies hold one library's bytes.
package let gzipDeflateEngine = BlockCompressor.engine
