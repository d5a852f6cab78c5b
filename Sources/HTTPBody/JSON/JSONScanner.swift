/// One pass of RFC 8259's grammar over UTF-8 bytes, telling a sink each
/// token in order: the one JSON grammar of the package, behind both
/// ``RawJSON`` (which checks a `:=` value and keeps it as written) and the
/// uploader's pretty printer (which copies each token as the server wrote it).
///
/// The check is strict: no comments, trailing commas, single quotes,
/// leading zeros, `NaN` or unescaped control characters; containers nest
/// at most ``maximumDepth`` levels. A `\u` escape of a lone UTF-16 surrogate
/// is accepted, as the grammar allows (section 7). Bytes inside a string
/// other than quotes, backslashes and control characters pass as they are.
package struct JSONScanner<Sink: JSONScanSink> {
    /// The deepest nesting of objects and arrays; deeper fails, so a hostile
    /// document cannot make the scan (or a sink) recurse without bound.
    package static var maximumDepth: Int { 512 }

    private let bytes: [UInt8]
    private var position = 0
    private var depth = 0
    /// Receives the tokens.
    package var sink: Sink

    /// A scanner of `bytes` that tells `sink`.
    package init(_ bytes: [UInt8], sink: Sink) {
        self.bytes = bytes
        self.sink = sink
    }

    /// Scans one value with optional whitespace around it, to the end of the
    /// bytes; returns the value's range.
    ///
    /// - Throws: ``JSONScanFailure`` at the first byte that breaks the grammar.
    package mutating func scanDocument() throws(JSONScanFailure) -> Range<Int> {
        whitespace()
        let start = position
        guard position < bytes.count else { throw failure("expected a value, found the end of the text") }
        try value()
        let end = position
        whitespace()
        guard position == bytes.count else { throw failure("unexpected \(found) after the value") }
        return start..<end
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private var found: String {
        guard let current else { return "end of text" }
        if current >= 0x20, current < 0x7F { return "'\(Character(Unicode.Scalar(current)))'" }
        return "byte 0x\(String(current, radix: 16, uppercase: true))"
    }

    private mutating func whitespace() {
        let start = position
        while let byte = current, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D {
            position += 1
        }
        if position > start { sink.receive(.whitespace(start..<position)) }
    }

    private mutating func value() throws(JSONScanFailure) {
        guard let current else { throw failure("expected a value, found the end of the text") }
        switch current {
        case UInt8(ascii: "{"): try container(close: UInt8(ascii: "}"), isObject: true)
        case UInt8(ascii: "["): try container(close: UInt8(ascii: "]"), isObject: false)
        case UInt8(ascii: "\""): try string(as: .string)
        case UInt8(ascii: "t"): try literal("true")
        case UInt8(ascii: "f"): try literal("false")
        case UInt8(ascii: "n"): try literal("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw failure("expected a value, found \(found)")
        }
    }

    /// An object or an array, its members or elements in order.
    private mutating func container(close: UInt8, isObject: Bool) throws(JSONScanFailure) {
        depth += 1
        guard depth <= Self.maximumDepth else { throw failure("nested deeper than \(Self.maximumDepth) levels") }
        let outer = depth - 1
        sink.receive(.open(bytes[position], depth: outer))
        position += 1
        whitespace()
        if current == close {
            sink.receive(.close(close, depth: outer, isEmpty: true))
            position += 1
            depth -= 1
            return
        }
        while true {
            sink.receive(.elementStart(depth: depth))
            if isObject {
                whitespace()
                guard current == UInt8(ascii: "\"") else { throw failure("expected a quoted member name, found \(found)") }
                try string(as: .key)
                whitespace()
                guard current == UInt8(ascii: ":") else { throw failure("expected ':' after the member name, found \(found)") }
                sink.receive(.colon)
                position += 1
            }
            whitespace()
            try value()
            whitespace()
            if current == UInt8(ascii: ",") {
                sink.receive(.comma)
                position += 1
                whitespace()
                continue
            }
            guard current == close else {
                throw failure("expected ',' or '\(Character(Unicode.Scalar(close)))' in the \(isObject ? "object" : "array"), found \(found)")
            }
            sink.receive(.close(close, depth: outer, isEmpty: false))
            position += 1
            depth -= 1
            return
        }
    }

    private mutating func literal(_ word: StaticString) throws(JSONScanFailure) {
        let expected = word.withUTF8Buffer { Array($0) }
        guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
            throw failure("expected '\(word)', found \(found)")
        }
        sink.receive(.token(.literal, position..<position + expected.count))
        position += expected.count
    }

    private mutating func digits() -> Int {
        let start = position
        while let byte = current, byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") { position += 1 }
        return position - start
    }

    /// `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`
    private mutating func number() throws(JSONScanFailure) {
        let start = position
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
        sink.receive(.token(.number, start..<position))
    }

    private mutating func string(as kind: JSONScanEvent.Token) throws(JSONScanFailure) {
        let start = position
        position += 1  // the opening quote
        while let byte = current {
            switch byte {
            case UInt8(ascii: "\""):
                position += 1
                sink.receive(.token(kind, start..<position))
                return
            case UInt8(ascii: "\\"):
                try escape()
            case 0x00..<0x20:
                throw failure("control character \(found) must be escaped inside a string")
            default:
                position += 1
            }
        }
        throw failure("unterminated string")
    }

    private mutating func escape() throws(JSONScanFailure) {
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
            for _ in 0..<4 {
                guard let digit = current, PercentEncoding.hexValue(digit) != nil else {
                    throw failure("expected four hex digits after \\u, found \(found)")
                }
                position += 1
            }
        default:
            throw failure("invalid escape '\\\(Character(Unicode.Scalar(byte)))'")
        }
    }

    private func failure(_ problem: String) -> JSONScanFailure {
        JSONScanFailure(problem: problem, position: min(position, bytes.count))
    }
}

/// What ``JSONScanner`` meets, in document order.
package enum JSONScanEvent: Sendable {
    /// The kinds of token copied as written.
    package enum Token: Sendable {
        case key, string, number, literal
    }

    /// Whitespace between tokens, at these byte offsets.
    case whitespace(Range<Int>)
    /// `{` or `[` opening a container whose own value sits at `depth` (0 for the document).
    case open(UInt8, depth: Int)
    /// A member or element of the container about to begin, at `depth`.
    case elementStart(depth: Int)
    /// The `:` after a member name.
    case colon
    /// The `,` between members or elements.
    case comma
    /// `}` or `]` closing the container opened at `depth`.
    case close(UInt8, depth: Int, isEmpty: Bool)
    /// A string, member name, number or literal, at these byte offsets.
    case token(Token, Range<Int>)
}

/// Receives a ``JSONScanner``'s events.
package protocol JSONScanSink {
    /// Takes the next event.
    mutating func receive(_ event: JSONScanEvent)
}

/// A sink that keeps nothing, for a scan that only checks the grammar.
package struct JSONGrammarCheck: JSONScanSink {
    package init() {}
    package func receive(_ event: JSONScanEvent) {}
}

/// Where a document breaks the grammar, and how.
package struct JSONScanFailure: Error {
    /// What was expected or found, as a sentence fragment.
    package let problem: String
    /// The byte offset of the first byte at fault (the length at the end).
    package let position: Int
}
