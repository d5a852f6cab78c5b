#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a caller-chosen boundary in content at about the speed the content
/// is read, whatever the boundary and the content.
///
/// Two filters, each confirmed by `memcmp`. First `memchr` for the boundary's
/// rarest byte (the C library's vectorised search, tens of GB/s while that
/// byte is absent). Should that byte turn out to be common in this content
/// (more than about one hit per 512 bytes), the rest is searched 64
/// positions at a time for the boundary's two rarest bytes at their offsets,
/// with 16-byte vector compares: a position survives only if both match,
/// which in text is rare even for two common letters.
///
/// Which bytes are rare is a guess from a table of how common each byte of
/// RFC 2046's `bchars` is in text; the guess only decides speed, never the
/// answer.
package struct BoundarySearch: Sendable {
    package let pattern: [UInt8]
    /// The offset of the pattern's rarest byte (the `memchr` target).
    private let rareOffset: Int
    /// The offset of its second rarest byte at another position; equal to
    /// `rareOffset` for a one-byte pattern.
    private let otherOffset: Int

    package init(pattern: [UInt8]) {
        self.pattern = pattern
        var rarest = 0
        for index in pattern.indices where Self.commonness(pattern[index]) < Self.commonness(pattern[rarest]) {
            rarest = index
        }
        var other = rarest
        for index in pattern.indices where index != rarest {
            if other == rarest || Self.commonness(pattern[index]) < Self.commonness(pattern[other]) { other = index }
        }
        rareOffset = rarest
        otherOffset = other
    }

    /// Whether the pattern occurs anywhere in `haystack`.
    func occurs(in haystack: UnsafeRawBufferPointer) -> Bool {
        guard !pattern.isEmpty else { return true }
        guard haystack.count >= pattern.count, let base = haystack.baseAddress else { return false }
        return pattern.withUnsafeBytes { needle in
            guard let needle = needle.baseAddress else { return false }
            let lastStart = haystack.count - pattern.count
            let rare = pattern[rareOffset]
            let other = pattern[otherOffset]
            var start = 0
            var hits = 0
            // memchr phase: each call looks for the rare byte among the
            // positions it can hold in a match starting at `start` or later.
            while start <= lastStart {
                guard let hit = memchr(base + start + rareOffset, Int32(rare), lastStart - start + 1) else { return false }
                let position = base.distance(to: UnsafeRawPointer(hit)) - rareOffset
                if base.load(fromByteOffset: position + otherOffset, as: UInt8.self) == other,
                    memcmp(base + position, needle, pattern.count) == 0
                {
                    return true
                }
                start = position + 1
                hits += 1
                if hits > 16, hits * 512 > start { break }  // the rare byte is common here
            }
            return Self.pairSearch(
                base, from: start, through: lastStart, needle: needle, count: pattern.count,
                first: (rareOffset, rare), second: (otherOffset, other)
            )
        }
    }

    /// Candidate starts from `start` through `lastStart` where both `first`
    /// and `second` match at their offsets, each confirmed with `memcmp`.
    private static func pairSearch(
        _ base: UnsafeRawPointer, from start: Int, through lastStart: Int, needle: UnsafeRawPointer, count: Int,
        first: (offset: Int, byte: UInt8), second: (offset: Int, byte: UInt8)
    ) -> Bool {
        let firstBase = base + first.offset
        let secondBase = base + second.offset
        let firstBytes = SIMD16<UInt8>(repeating: first.byte)
        let secondBytes = SIMD16<UInt8>(repeating: second.byte)
        /// The lanes where both bytes match for the 16 starts at `start`, as a
        /// mask of 0x00 and 0xFF bytes. Both loads end at most at
        /// `start + 15 + count - 1`, inside the haystack while `start + 15 <= lastStart`.
        func candidates(_ start: Int) -> SIMD16<UInt8> {
            let firsts = firstBase.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self)
            let seconds = secondBase.loadUnaligned(fromByteOffset: start, as: SIMD16<UInt8>.self)
            return unsafeBitCast((firsts .== firstBytes) .& (seconds .== secondBytes), to: SIMD16<UInt8>.self)
        }
        /// Confirms each candidate in a 16-lane mask, lowest start first.
        func confirms(_ mask: SIMD16<UInt8>, at start: Int) -> Bool {
            let halves = unsafeBitCast(mask, to: SIMD2<UInt64>.self)
            for half in 0..<2 {
                var lanes = UInt64(littleEndian: halves[half])
                while lanes != 0 {
                    let lane = lanes.trailingZeroBitCount / 8
                    if memcmp(base + start + half * 8 + lane, needle, count) == 0 { return true }
                    lanes &= ~(0xFF << UInt64(lane * 8))
                }
            }
            return false
        }
        var start = start
        while start + 63 <= lastStart {
            let masks = (candidates(start), candidates(start + 16), candidates(start + 32), candidates(start + 48))
            let any = unsafeBitCast((masks.0 | masks.1) | (masks.2 | masks.3), to: SIMD2<UInt64>.self)
            if any[0] | any[1] != 0 {
                if confirms(masks.0, at: start) || confirms(masks.1, at: start + 16)
                    || confirms(masks.2, at: start + 32) || confirms(masks.3, at: start + 48)
                {
                    return true
                }
            }
            start += 64
        }
        while start + 15 <= lastStart {
            if confirms(candidates(start), at: start) { return true }
            start += 16
        }
        while start <= lastStart {
            if firstBase.load(fromByteOffset: start, as: UInt8.self) == first.byte,
                secondBase.load(fromByteOffset: start, as: UInt8.self) == second.byte,
                memcmp(base + start, needle, count) == 0
            {
                return true
            }
            start += 1
        }
        return false
    }

    /// How often `byte` turns up in typical content, 0 (never) to 255 (space
    /// in prose): English letter frequencies, lower case above upper case,
    /// then digits and punctuation. Bytes outside `bchars` never occur in a
    /// boundary and are not ranked.
    private static func commonness(_ byte: UInt8) -> UInt8 {
        switch byte {
        case UInt8(ascii: " "): 255
        case UInt8(ascii: "e"): 250
        case UInt8(ascii: "t"): 246
        case UInt8(ascii: "a"), UInt8(ascii: "o"), UInt8(ascii: "i"), UInt8(ascii: "n"): 243
        case UInt8(ascii: "s"), UInt8(ascii: "r"), UInt8(ascii: "h"): 239
        case UInt8(ascii: "l"), UInt8(ascii: "d"), UInt8(ascii: "c"): 233
        case UInt8(ascii: "u"), UInt8(ascii: "m"), UInt8(ascii: "f"), UInt8(ascii: "p"), UInt8(ascii: "g"): 226
        case UInt8(ascii: "w"), UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "."), UInt8(ascii: ","): 220
        case UInt8(ascii: "v"), UInt8(ascii: "k"), UInt8(ascii: "0"), UInt8(ascii: "1"), UInt8(ascii: "2"), UInt8(ascii: "-"): 212
        case UInt8(ascii: "3")...UInt8(ascii: "9"), UInt8(ascii: "/"), UInt8(ascii: ":"), UInt8(ascii: "'"): 204
        case UInt8(ascii: "x"), UInt8(ascii: "j"), UInt8(ascii: "_"), UInt8(ascii: "="), UInt8(ascii: "("), UInt8(ascii: ")"): 196
        case UInt8(ascii: "q"), UInt8(ascii: "z"): 188
        case UInt8(ascii: "T"), UInt8(ascii: "A"), UInt8(ascii: "S"), UInt8(ascii: "I"), UInt8(ascii: "E"), UInt8(ascii: "C"): 184
        case UInt8(ascii: "B")...UInt8(ascii: "P"): 176
        case UInt8(ascii: "R")...UInt8(ascii: "W"), UInt8(ascii: "Y"), UInt8(ascii: "+"), UInt8(ascii: "?"): 172
        case UInt8(ascii: "Q"), UInt8(ascii: "X"), UInt8(ascii: "Z"): 164
        default: 128
        }
    }
}
