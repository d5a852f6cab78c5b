/// The CRC-32 of ISO 3309 and ITU-T V.42 (RFC 1952's, zlib's): what gzip's
/// trailer carries, and what S3 checks as `x-amz-checksum-crc32`.
///
/// Computed by carry-less multiplication where the processor has it
/// (CCRC32) and by zlib
/// otherwise (Deflater.swift holds both calls); a package-wide type so the
/// object-storage module need not link zlib a second way.
package struct CRC32: Sendable, Hashable {
    /// The checksum of the bytes so far (0 before any).
    package private(set) var value: UInt32 = 0

    /// A checksum of no bytes.
    package init() {}

    /// Adds `bytes` to the checksum.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        value = Deflater.crc32(continuing: value, over: bytes)
    }

    /// The checksum's four bytes, most significant first (as S3 encodes it before base64).
    package var bigEndianBytes: [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16), UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
