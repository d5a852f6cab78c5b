import HTTPBody
import Testing

/// The package's CRC-32 (zlib's, for S3's `x-amz-checksum-crc32`) against
/// the standard check value and across split updates.
struct CRC32Tests {
    @Test func givesTheStandardCheckValue() {
        var crc = CRC32()
        Array("123456789".utf8).withUnsafeBytes { crc.update($0) }
        #expect(crc.value == 0xCBF4_3926)  // the catalogue's "check" for CRC-32/ISO-HDLC
        #expect(crc.bigEndianBytes == [0xCB, 0xF4, 0x39, 0x26])
        #expect(CRC32().value == 0)
    }

    @Test func updatesInPiecesGiveTheWholesValue() {
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 7) }
        var whole = CRC32()
        bytes.withUnsafeBytes { whole.update($0) }
        var pieces = CRC32()
        for start in stride(from: 0, to: bytes.count, by: 7_777) {
            bytes[start..<min(bytes.count, start + 7_777)].withUnsafeBytes { pieces.update($0) }
        }
        pieces.update(UnsafeRawBufferPointer(start: nil, count: 0))
        #expect(pieces == whole)
    }
}
