/// A JSON text checked against RFC 8259 and kept exactly as written.
///
/// Nothing is parsed into Swift numbers and written back, so
/// `9007199254740993`, `0.1`, `1.5e300` and 30-digit integers reach the server
/// digit for digit. Only the insignificant whitespace around the value is
/// dropped.
///
/// The check is strict: no comments, trailing commas, single quotes, leading
/// zeros, `NaN` or unescaped control characters; nesting is limited to 512
/// levels. A `\u` escape of a lone UTF-16 surrogate (`"\ud800"`) is
/// accepted, as RFC 8259's grammar allows it (section 7; section 8.2 says
/// receivers may treat it differently): the text is sent as written, and
/// what the receiver makes of it is the receiver's.
package struct RawJSON: Sendable, Hashable, CustomStringConvertible {
    /// The JSON text, without surrounding whitespace.
    package let text: String

    /// Checks `text` and keeps it.
    ///
    /// - Throws: ``JSONBodyError`` with code ``JSONBodyError/Code/invalidRawJSON``
    ///   naming the line and column of the first problem.
    package init(validating text: String) throws(JSONBodyError) {
        let bytes = Array(text.utf8)
        var validator = JSONValidator(bytes: bytes)
        let range = try validator.validateDocument()
        self.text = String(decoding: bytes[range], as: UTF8.self)
    }

    /// The JSON text.
    package var description: String { text }
}

/// A recursive-descent recogniser for RFC 8259's grammar over UTF-8 bytes.
private struct JSONValidator {
    static let maximumDepth = 512

    let bytes: [UInt8]
    var position = 0
    var depth = 0

    init(bytes: [UInt8]) { self.bytes = bytes }

    /// Validates one value with optional whitespace around it; returns the value's range.
    mutating func validateDocument() throws(JSONBodyError) -> Range<Int> {
        skipWhitespace()
        let start = position
        guard position < bytes.count else { throw failure("expected a value, found the end of the text") }
        try value()
        let end = position
        skipWhitespace()
        guard position == bytes.count else { throw failure("unexpected \(found) after the value") }
        return start..<end
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private var found: String {
        guard let current else { return "end of text" }
        if current >= 0x20, current < 0x7F { return "'\(Character(Unicode.Scalar(current)))'" }
        return "byte 0x\(String(current, radix: 16, uppercase: true))"
    }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            position += 1
        }
    }

    private mutating func value() throws(JSONBodyError) {
        guard let current else { throw failure("expected a value, found the end of the text") }
        switch current {
        case UInt8(ascii: "{"): try object()
        case UInt8(ascii: "["): try array()
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw failure("expected a value, found \(found)")
        }
    }

    private mutating func enter() throws(JSONBodyError) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
    }

    private mutating func object() throws(JSONBodyError) {
        try enter()
        position += 1
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            position += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted member name, found \(found)") }
            try string()
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the member name, found \(found)") }
            position += 1
            skipWhitespace()
            try value()
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard current == UInt8(ascii: "}") else { throw failure("expected ',' or '}' in the object, found \(found)") }
            position += 1
            depth -= 1
            return
        }
    }

    private mutating func array() throws(JSONBodyError) {
        try enter()
        position += 1
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            position += 1
            depth -= 1
            return
        }
        while true {
            skipWhitespace()
            try value()
            skipWhitespace()
            if current == UInt8(ascii: ",") {
                position += 1
                continue
            }
            guard current == UInt8(ascii: "]") else { throw failure("expected ',' or ']' in the array, found \(found)") }
            position += 1
            depth -= 1
            return
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONBodyError) {
        let expected = word.withUTF8Buffer { Array($0) }
        guard bytes.count - position >= expected.count, Array(bytes[position..<position + expected.count]) == expected else {
            throw failure("expected '\(word)', found \(found)")
        }
        position += expected.count
    }

    private mutating func digits() -> Int {
        let start = position
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    private mutating func number() throws(JSONBodyError) {
        if current == UInt8(ascii: "-") { position += 1 }
        if current == UInt8(ascii: "0") {
            position += 1
            if let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                throw failure("a number may not have a leading zero")
            }
        } else if digits() == 0 {
            throw failure("expected a digit, found \(found)")
        }
        if current == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw failure("expected a digit after the decimal point, found \(found)") }
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw failure("expected a digit in the exponent, found \(found)") }
        }
    }

    private mutating func string() throws(JSONBodyError) {
        position += 1  // the opening quote
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                return
            case UInt8(ascii: "\\"):
                try escape()
            case 0x00..<0x20:
                throw failure("control character \(found) must be escaped inside a string")
            default:
                position += 1  // Swift strings are valid UTF-8, so other bytes pass as they are
            }
        }
        throw failure("unterminated string")
    }

    private mutating func escape() throws(JSONBodyError) {
        position += 1  // the backslash
        guard let byte = current else { throw failure("unterminated escape sequence") }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
            UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
        case UInt8(ascii: "u"):
            position += 1
            // Any four hex digits: the grammar's `\u` escape names a UTF-16
            // code unit, surrogates included, paired or not.
            _ = try hexQuad()
        default:
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private mutating func hexQuad() throws(JSONBodyError) -> UInt16 {
        var unit: UInt16 = 0
        for _ in 0..<4 {
            guard let byte = current, let digit = PercentEncoding.hexValue(byte) else {
                throw failure("expected four hex digits after \\u, found \(found)")
            }
            unit = unit << 4 | UInt16(digit)
            position += 1
        }
        return unit
    }


    /// An error at the current position, counted in lines and characters from 1.
    private func failure(_ problem: String) -> JSONBodyError {
        let before = bytes[..<min(position, bytes.count)]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<min(position, bytes.count)], as: UTF8.self).count + 1
        return .invalidRawJSON(problem, line: line, column: column)
    }
}
