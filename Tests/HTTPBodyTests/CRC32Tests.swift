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

    /// Where the processor folds with carry-less multiplication, every
    /// length (the folded multiple of 16 and zlib's tail), start address and
    /// starting value gives what the bit-by-bit definition gives: from 64
    /// bytes the four-lane fold, from 256 the eight-lane one where the
    /// processor has VPCLMULQDQ (this machine's kind has).
    @Test func everyLengthAndAlignmentGivesTheDefinitionsValue() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        let bytes = (0..<70_000).map { _ in
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        let lengths = Array(0...300) + [1_023, 1_024, 4_095, 4_096, 4_097, 65_536, 69_983]
        var mismatches: [String] = []
        for length in lengths {
            for offset in [0, 1, 8, 15] where offset + length <= bytes.count {
                // After a few bytes, so the fold continues from a value other than 0.
                let lead = bytes[(bytes.count - 3)...]
                let slice = bytes[offset..<(offset + length)]
                var crc = CRC32()
                lead.withUnsafeBytes { crc.update($0) }
                slice.withUnsafeBytes { crc.update($0) }
                let expected = Self.bitwise(slice, continuing: Self.bitwise(lead, continuing: 0))
                if crc.value != expected { mismatches.append("length \(length) offset \(offset)") }
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(10))")
    }

    /// The CRC-32 bit by bit, reflected polynomial 0xEDB88320, continuing
    /// from `crc` as zlib's `crc32()` does.
    static func bitwise(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32) -> UInt32 {
        var value = ~crc
        for byte in bytes {
            value ^= UInt32(byte)
            for _ in 0..<8 {
                value = value & 1 == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
            }
        }
        return ~value
    }
}
