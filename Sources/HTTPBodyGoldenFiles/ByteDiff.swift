import HTTPBody

/// A readable account of how two byte strings differ, for failure messages.
///
/// Text (valid UTF-8 with no control characters but tab, CR and LF) is shown
/// line by line with the line endings spelled out, because a lost `\r` is the
/// commonest way an HTTP message goes wrong and is invisible otherwise.
/// Anything else is shown as hex rows of both versions. Every differing
/// region is shown, not only the first (up to a readable limit).
struct ByteDiff: CustomStringConvertible {
    let expected: [UInt8]
    let actual: [UInt8]

    /// Lines or rows of context shown around a difference, and the most
    /// changed lines shown from each side, so a message stays readable.
    private static let context = 2
    private static let maximumChangedLines = 12

    /// The first offset at which the two differ (the shorter one's length
    /// when one is a prefix of the other).
    var firstDifference: Int {
        zip(expected, actual).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(expected.count, actual.count)
    }

    /// Where the first difference is and how long each side is, on one line.
    var summary: String {
        let offset = firstDifference
        let line = expected[..<offset].count { $0 == UInt8(ascii: "\n") } + 1
        return "at byte \(offset) (line \(line)); expected \(expected.count) bytes, got \(actual.count)."
    }

    /// Every differing region: hunks of lines for text, hex rows for bytes.
    var details: String {
        Self.isText(expected) && Self.isText(actual) ? lineDiff() : hexDiff()
    }

    var description: String {
        summary + "\n" + details
    }

    /// True when the bytes are text, shown line by line.
    static func isText(_ bytes: some Collection<UInt8>) -> Bool {
        let isControl = { (byte: UInt8) in
            (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
        }
        return !bytes.contains(where: isControl) && String(validating: Array(bytes), as: UTF8.self) != nil
    }

    /// At most this many regions are shown, so a message stays readable.
    private static let maximumRegions = 8

    // MARK: Text

    /// One hunk per differing region. When both sides have as many lines,
    /// lines are compared in place, so changes far apart are separate hunks
    /// with only their context between; otherwise one hunk spans everything
    /// between the common first and last lines.
    private func lineDiff() -> String {
        let old = Self.lines(expected)
        let new = Self.lines(actual)
        var hunks: [(old: Range<Int>, new: Range<Int>)] = []
        if old.count == new.count {
            for index in old.indices where old[index] != new[index] {
                if let last = hunks.last, index - last.old.upperBound <= 2 * Self.context {
                    hunks[hunks.count - 1] = (last.old.lowerBound..<index + 1, last.new.lowerBound..<index + 1)
                } else {
                    hunks.append((index..<index + 1, index..<index + 1))
                }
            }
        } else {
            let prefix = zip(old, new).prefix { $0 == $1 }.count
            let suffix = zip(old.reversed(), new.reversed()).prefix { $0 == $1 }.count
            let common = min(suffix, old.count - prefix, new.count - prefix)
            hunks = [(prefix..<(old.count - common), prefix..<(new.count - common))]
        }

        var out: [String] = []
        for (number, hunk) in hunks.prefix(Self.maximumRegions).enumerated() {
            let legend = number == 0 ? "  (- golden, + actual; \\r and \\n are the bytes)" : ""
            out.append("@@ line \(hunk.old.lowerBound + 1) @@" + legend)
            out += old[max(0, hunk.old.lowerBound - Self.context)..<hunk.old.lowerBound].map { "  " + Self.render($0) }
            if hunk.old.count == hunk.new.count {
                // Lines compared in place: equal ones inside the hunk are context.
                var index = hunk.old.lowerBound
                while index < hunk.old.upperBound {
                    if old[index] == new[index] {
                        out.append("  " + Self.render(old[index]))
                        index += 1
                        continue
                    }
                    var end = index
                    while end < hunk.old.upperBound && old[end] != new[end] { end += 1 }
                    out += Self.capped(old[index..<end].map { "- " + Self.render($0) })
                    out += Self.capped(new[index..<end].map { "+ " + Self.render($0) })
                    index = end
                }
            } else {
                out += Self.capped(old[hunk.old].map { "- " + Self.render($0) })
                out += Self.capped(new[hunk.new].map { "+ " + Self.render($0) })
            }
            let after = hunk.old.upperBound
            out += old[after..<min(old.count, after + Self.context)].map { "  " + Self.render($0) }
        }
        if hunks.count > Self.maximumRegions {
            out.append("… \(hunks.count - Self.maximumRegions) more differing regions")
        }
        return out.joined(separator: "\n")
    }

    /// Splits after each LF, keeping it, so a line's ending is part of it.
    private static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            lines.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.endIndex { lines.append(bytes[start...]) }
        return lines
    }

    static func render(_ line: ArraySlice<UInt8>) -> String {
        var text = ""
        for scalar in String(decoding: line, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\r": text += "\\r"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    private static func capped(_ lines: [String]) -> [String] {
        guard lines.count > maximumChangedLines else { return lines }
        return lines.prefix(maximumChangedLines) + ["  … \(lines.count - maximumChangedLines) more lines"]
    }

    // MARK: Binary

    /// The differing regions as hex rows of both versions. When both have
    /// as many bytes, bytes are compared in place, so changes more than two
    /// rows apart are separate regions; otherwise one region spans everything
    /// between the common start and end.
    private func hexDiff() -> String {
        var regions: [(expected: Range<Int>, actual: Range<Int>)] = []
        if expected.count == actual.count {
            for index in expected.indices where expected[index] != actual[index] {
                if let last = regions.last, index - last.expected.upperBound <= 32 {
                    regions[regions.count - 1] = (last.expected.lowerBound..<index + 1, last.actual.lowerBound..<index + 1)
                } else {
                    regions.append((index..<index + 1, index..<index + 1))
                }
            }
        } else {
            let prefix = firstDifference
            let suffix = zip(expected.reversed(), actual.reversed()).prefix { $0 == $1 }.count
            let common = min(suffix, expected.count - prefix, actual.count - prefix)
            regions = [(prefix..<(expected.count - common), prefix..<(actual.count - common))]
        }

        var out: [String] = []
        for (number, region) in regions.prefix(Self.maximumRegions).enumerated() {
            let offset = region.expected.lowerBound
            let differing = { (side: [UInt8]) in
                offset < side.count ? "0x" + Self.hex(side[offset]) : "(end)"
            }
            let title = regions.count > 1 ? "region \(number + 1) of \(regions.count): " : ""
            out.append(title + "golden \(differing(expected)), actual \(differing(actual)) at byte \(offset); > marks its rows")
            out += Self.hexRows("golden:", expected, marking: region.expected)
            out += Self.hexRows("actual:", actual, marking: region.actual)
        }
        if regions.count > Self.maximumRegions {
            out.append("… \(regions.count - Self.maximumRegions) more differing regions")
        }
        return out.joined(separator: "\n")
    }

    /// Rows of `bytes` holding `region`, marked, with context rows around;
    /// a long region shows its first rows only.
    private static func hexRows(_ title: String, _ bytes: [UInt8], marking region: Range<Int>) -> [String] {
        let maximumMarkedRows = 8
        let firstMarked = region.lowerBound / 16
        let lastMarked = max(region.lowerBound, region.upperBound - 1) / 16
        let shownMarked = min(lastMarked, firstMarked + maximumMarkedRows - 1)
        var out = [title]
        for row in max(0, firstMarked - context)...(shownMarked + context)
        where row * 16 < bytes.count || row == firstMarked {
            if row > shownMarked && shownMarked < lastMarked {
                out.append("  … \(lastMarked - shownMarked) more changed rows")
                break
            }
            out.append(hexRow(bytes, row: row, marked: (firstMarked...lastMarked).contains(row)))
        }
        return out
    }

    private static func hexRow(_ bytes: [UInt8], row: Int, marked: Bool) -> String {
        let start = row * 16
        let slice = bytes[min(start, bytes.count)..<min(start + 16, bytes.count)]
        var hexColumn = ""
        for (index, byte) in slice.enumerated() {
            hexColumn += (index == 8 ? "  " : index == 0 ? "" : " ") + hex(byte)
        }
        let padded = hexColumn + String(repeating: " ", count: max(0, 48 - hexColumn.count))
        let printable = String(slice.map { (0x20..<0x7F).contains($0) ? Character(Unicode.Scalar($0)) : "." })
        let address = String(start, radix: 16)
        return (marked ? "> " : "  ") + String(repeating: "0", count: max(0, 8 - address.count)) + address
            + "  " + padded + "  |" + printable + "|"
    }

    private static func hex(_ byte: UInt8) -> String {
        CollectionOfOne(byte).lowercaseHex
    }
}
