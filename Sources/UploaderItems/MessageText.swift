/// Text from the command line or a server, made safe to show in a one-line
/// message on a terminal.
extension String {
    /// The longest echoed value, in characters, before it is cut with `…`.
    package static let echoLimit = 200

    /// The text with every control character escaped, so a message stays on
    /// one line and no escape sequence reaches the terminal raw: `\n`, `\r`,
    /// `\t`, `\x1b` for the other C0 controls and DEL, `\u{85}` for C1
    /// controls, the Unicode line and paragraph separators and the
    /// bidirectional overrides.
    ///
    /// Printable text, backslashes included, is left alone, so escaping text
    /// that was escaped already changes nothing.
    package var escapedForMessage: String {
        guard unicodeScalars.contains(where: Self.needsEscape) else { return self }
        var result = ""
        result.unicodeScalars.reserveCapacity(unicodeScalars.count + 8)
        for scalar in unicodeScalars {
            guard Self.needsEscape(scalar) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            if let byte = RawArgument.escapedByte(scalar) {
                result += "\\x" + String(byte, radix: 16)  // a byte of a name that is not UTF-8
                continue
            }
            switch scalar {
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x80:
                let hex = String(scalar.value, radix: 16)
                result += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            default:
                result += "\\u{" + String(scalar.value, radix: 16) + "}"
            }
        }
        return result
    }

    /// The text as a message echoes a user's or server's value: cut after
    /// ``echoLimit`` characters with `…`, then escaped (``escapedForMessage``).
    package var echoed: String {
        var cut = self
        if let end = index(startIndex, offsetBy: Self.echoLimit, limitedBy: endIndex), end < endIndex {
            cut = String(self[..<end]) + "…"
        }
        return cut.escapedForMessage
    }

    private static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F, 0x80...0x9F, 0x2028, 0x2029: true
        // Bidirectional overrides and isolates: they reorder what follows on the line.
        case 0x202A...0x202E, 0x2066...0x2069: true
        // Bytes of a command-line argument that are not UTF-8 (RawArgument).
        case 0x10FF80...0x10FFFF: true
        default: false
        }
    }
}
