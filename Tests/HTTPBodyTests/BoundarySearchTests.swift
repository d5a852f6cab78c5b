@testable import HTTPBody
import PropertyBased
import Testing

/// The search for a caller-chosen boundary in file and stream contents, at
/// the edges where a fast search goes wrong: a boundary split between two
/// reads at every offset, partial boundaries, content made of the
/// boundary's own bytes, and both of its filters (`memchr` for a rare byte,
/// then a 64-byte vector scan once that byte proves common). Answers are
/// compared with `firstRange(of:)`, which shares no code with the search.
@Suite struct BoundarySearchTests {
    /// Boundaries of every shape the search treats differently: one byte,
    /// repeated bytes, common letters only, rare bytes at either end, the longest.
    static let boundaries = [
        "x", "ab", "aaaa", "abab", "the end", "----x", "x----", "q-b-q",
        "compare-sh-7MA4YWxkTrZu0gW", String(repeating: "Zz", count: 35),
    ]

    @Test(arguments: boundaries)
    func findsBoundarySplitAtEveryOffsetAcrossTwoReads(_ boundary: String) {
        let pattern = Array(boundary.utf8)
        // Filler without the boundary's bytes, long enough that the boundary
        // lands in the vector scan's blocks and in its byte-by-byte tail.
        for lead in [0, 1, 15, 63, 64, 65, 200] {
            let content = Array(repeating: UInt8(ascii: "."), count: lead) + pattern + Array(repeating: UInt8(ascii: "."), count: 70)
            for split in 0...content.count {
                var scanner = BoundaryScanner(search: BoundarySearch(pattern: pattern))
                let found = content.withUnsafeBytes { bytes in
                    scanner.scan(UnsafeRawBufferPointer(rebasing: bytes[..<split]))
                        || scanner.scan(UnsafeRawBufferPointer(rebasing: bytes[split...]))
                }
                #expect(found, "\(boundary) after \(lead) bytes, split at \(split)")
            }
        }
    }

    @Test(arguments: boundaries)
    func findsBoundaryReadOneByteAtATime(_ boundary: String) {
        let pattern = Array(boundary.utf8)
        let content = Array("some text before ".utf8) + pattern
        var scanner = BoundaryScanner(search: BoundarySearch(pattern: pattern))
        let found = content.indices.contains { index in
            content.withUnsafeBytes { scanner.scan(UnsafeRawBufferPointer(rebasing: $0[index...index])) }
        }
        #expect(found)
    }

    @Test(arguments: boundaries)
    func ignoresPartialBoundaries(_ boundary: String) {
        let pattern = Array(boundary.utf8)
        guard pattern.count > 1 else { return }
        // Every proper prefix ending one read and every proper suffix starting
        // the next, with a byte the boundary does not hold in between.
        for cut in 1..<pattern.count {
            var scanner = BoundaryScanner(search: BoundarySearch(pattern: pattern))
            let first = Array(repeating: UInt8(ascii: "."), count: 100) + pattern[..<cut]
            let second = [UInt8(ascii: "!")] + pattern[cut...] + Array(repeating: UInt8(ascii: "."), count: 100)
            let found = first.withUnsafeBytes { scanner.scan($0) } || second.withUnsafeBytes { scanner.scan($0) }
            #expect(!found, "\(boundary) cut at \(cut)")
        }
        // The boundary with one byte changed, many times over, so both
        // filters see plenty of candidates that fail to match.
        for position in pattern.indices {
            var nearMiss = pattern
            nearMiss[position] = UInt8(ascii: "!")
            let content = Array([[UInt8]](repeating: nearMiss, count: 300).joined())
            let found = content.withUnsafeBytes { BoundarySearch(pattern: pattern).occurs(in: $0) }
            #expect(!found, "\(boundary) with byte \(position) changed")
        }
    }

    @Test func findsBoundaryAmongItsOwnRepeatedBytes() {
        let cases: [(boundary: String, content: String, found: Bool)] = [
            ("aaaab", String(repeating: "a", count: 5000) + "b", true),
            ("aaaab", String(repeating: "a", count: 5000) + "c", false),
            ("aaaab", String(repeating: "aaab", count: 2000), false),
            ("abab", String(repeating: "ab", count: 3000), true),
            ("abab", String(repeating: "aba-", count: 3000), false),
            ("b-b", String(repeating: "b-", count: 3000), true),
            ("--x--", String(repeating: "--x-.", count: 3000), false),
            ("--x--", String(repeating: "--x-.", count: 3000) + "--x--", true),
        ]
        for (boundary, content, expected) in cases {
            let found = Array(content.utf8).withUnsafeBytes { BoundarySearch(pattern: Array(boundary.utf8)).occurs(in: $0) }
            #expect(found == expected, "\(boundary) in \(content.prefix(20))... (\(content.utf8.count) bytes)")
        }
    }

    /// Content drawn from the boundary's own bytes and a few others, read in
    /// random pieces: the scanner finds the boundary exactly when it is there.
    @Test func agreesWithNaiveSearchWhateverTheReads() async {
        let alphabet = Array("ab-xZ ".utf8)
        await propertyCheck(
            count: 3000,
            input: Gen.element(of: alphabet).compactMap { $0 }.array(of: 1...9),
            Gen.element(of: alphabet).compactMap { $0 }.array(of: 0...3000),
            Gen.int(in: 1...700).array(of: 1...8)
        ) { pattern, content, pieces in
            let pattern = pattern.last == UInt8(ascii: " ") ? pattern.dropLast() + [UInt8(ascii: "x")] : pattern
            let expected = content.firstRange(of: pattern) != nil
            #expect(content.withUnsafeBytes { BoundarySearch(pattern: pattern).occurs(in: $0) } == expected)
            var scanner = BoundaryScanner(search: BoundarySearch(pattern: pattern))
            var found = false
            var start = 0
            var piece = 0
            while start < content.count, !found {
                let end = min(content.count, start + pieces[piece % pieces.count])
                found = content.withUnsafeBytes { scanner.scan(UnsafeRawBufferPointer(rebasing: $0[start..<end])) }
                start = end
                piece += 1
            }
            #expect(found == expected, "\(String(decoding: pattern, as: UTF8.self)) in \(content.count) bytes read in pieces of \(pieces)")
        }
    }
}
