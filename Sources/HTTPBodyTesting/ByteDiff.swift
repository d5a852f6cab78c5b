/// A readable account of how two byte strings differ, for failure messages.
///
/// Text (valid UTF-8 with no control characters but tab, CR and LF) is shown
/// line by line with the line endings spelled out, because a lost `\r` is the
/// commonest way an HTTP message goes wrong and is invisible otherwise.
/// Anything else is shown as a hex dump of the rows around the first
/// differing byte.
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

    var description: String {
        let offset = firstDifference
        let line = expected[..<offset].count { $0 == UInt8(ascii: "\n") } + 1
        let summary = "at byte \(offset) (line \(line)); expected \(expected.count) bytes, got \(actual.count)."
        if Self.isText(expected) && Self.isText(actual) {
            return summary + "\n" + lineDiff()
        }
        return summary + "\n" + hexDiff(around: offset)
    }

    // MARK: Text

    private func lineDiff() -> String {
        let old = Self.lines(expected)
        let new = Self.lines(actual)
        let prefix = zip(old, new).prefix { $0 == $1 }.count
        let suffix = zip(old.reversed(), new.reversed())
            .prefix { $0 == $1 }.count
        let common = min(suffix, old.count - prefix, new.count - prefix)
        let removed = old[prefix..<(old.count - common)]
        let added = new[prefix..<(new.count - common)]

        var out = ["@@ line \(prefix + 1) @@  (- golden, + actual; \\r and \\n are the bytes)"]
        out += old[max(0, prefix - Self.context)..<prefix].map { "  " + Self.render($0) }
        out += Self.capped(removed.map { "- " + Self.render($0) })
        out += Self.capped(added.map { "+ " + Self.render($0) })
        let after = old.count - common
        out += old[after..<min(old.count, after + Self.context)].map { "  " + Self.render($0) }
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

    private static func render(_ line: ArraySlice<UInt8>) -> String {
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

    private static func isText(_ bytes: [UInt8]) -> Bool {
        let isControl = { (byte: UInt8) in
            (byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D) || byte == 0x7F
        }
        return !bytes.contains(where: isControl) && String(validating: bytes, as: UTF8.self) != nil
    }

    // MARK: Binary

    private func hexDiff(around offset: Int) -> String {
        let firstRow = max(0, offset / 16 - Self.context)
        let lastRow = offset / 16 + Self.context
        let differing = { (side: [UInt8], other: [UInt8]) in
            offset < side.count ? "0x" + Self.hex(side[offset]) : "(end)"
        }
        var out = ["golden \(differing(expected, actual)), actual \(differing(actual, expected)) at byte \(offset); > marks its row"]
        for (title, bytes) in [("golden:", expected), ("actual:", actual)] {
            out.append(title)
            for row in firstRow...lastRow where row * 16 < bytes.count || row == offset / 16 {
                out.append(Self.hexRow(bytes, row: row, marked: row == offset / 16))
            }
        }
        return out.joined(separator: "\n")
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
        (byte < 0x10 ? "0" : "") + String(byte, radix: 16)
    }
}
