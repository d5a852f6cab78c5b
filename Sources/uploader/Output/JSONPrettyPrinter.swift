/// Shows a JSON document for a reader, as HTTPie does: indented by four
/// spaces, one member per line, tokens coloured with ANSI escapes.
///
/// Tokens are copied as the server wrote them: numbers are never rounded
/// through floating point, string escapes stay escaped (so a `\u001b` in a
/// value cannot drive the terminal), and members keep their order. What is
/// not exactly one JSON value (RFC 8259) is not formatted at all: the caller
/// writes the server's bytes instead.
struct JSONPrettyPrinter {
    /// Re-indent the document (otherwise the server's own spacing is kept).
    var indents: Bool
    /// Colour keys, strings, numbers and literals.
    var colours: Bool

    /// Nesting past this is shown as sent, rather than formatted by a
    /// recursion that a hostile body could make arbitrarily deep.
    static let maximumDepth = 512

    /// The escapes for each kind of token (close to HTTPie's terminal style).
    enum Colour {
        static let key: [UInt8] = Array("\u{1B}[34m".utf8)
        static let string: [UInt8] = Array("\u{1B}[33m".utf8)
        static let number: [UInt8] = Array("\u{1B}[36m".utf8)
        static let literal: [UInt8] = Array("\u{1B}[35m".utf8)
        static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
    }

    /// The document formatted, ending with a newline when indented; `nil`
    /// when `document` is not one JSON value.
    func format(_ document: [UInt8]) -> [UInt8]? {
        var scanner = Scanner(input: document, indents: indents, colours: colours)
        scanner.output.reserveCapacity(document.count + document.count / 2)
        guard scanner.value(depth: 0) else { return nil }
        scanner.space()
        guard scanner.index == document.count else { return nil }
        if indents { scanner.output.append(UInt8(ascii: "\n")) }
        return scanner.output
    }

    /// One pass over the document: checks the grammar and writes the output
    /// as it goes.
    private struct Scanner {
        let input: [UInt8]
        let indents: Bool
        let colours: Bool
        var index = 0
        var output: [UInt8] = []

        init(input: [UInt8], indents: Bool, colours: Bool) {
            (self.input, self.indents, self.colours) = (input, indents, colours)
        }

        private var current: UInt8? { index < input.count ? input[index] : nil }

        /// Skips white space; kept in the output when not re-indenting.
        mutating func space() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if !indents { output.append(byte) }
                index += 1
            }
        }

        private mutating func newLine(depth: Int) {
            guard indents else { return }
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 4))
        }

        /// Copies `input[start..<index]` in `colour`.
        private mutating func emit(from start: Int, colour: [UInt8]) {
            if colours { output.append(contentsOf: colour) }
            output.append(contentsOf: input[start..<index])
            if colours { output.append(contentsOf: Colour.reset) }
        }

        mutating func value(depth: Int) -> Bool {
            guard depth < JSONPrettyPrinter.maximumDepth else { return false }
            space()
            guard let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "{"): return container(depth: depth, close: UInt8(ascii: "}"), isObject: true)
            case UInt8(ascii: "["): return container(depth: depth, close: UInt8(ascii: "]"), isObject: false)
            case UInt8(ascii: "\""): return string(colour: Colour.string)
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
            case UInt8(ascii: "t"): return literal("true")
            case UInt8(ascii: "f"): return literal("false")
            case UInt8(ascii: "n"): return literal("null")
            default: return false
            }
        }

        /// An object or an array: `{}` and `[]` stay on one line.
        private mutating func container(depth: Int, close: UInt8, isObject: Bool) -> Bool {
            output.append(input[index])
            index += 1
            space()
            if current == close {
                output.append(close)
                index += 1
                return true
            }
            while true {
                newLine(depth: depth + 1)
                if isObject {
                    space()
                    guard current == UInt8(ascii: "\""), string(colour: Colour.key) else { return false }
                    space()
                    guard current == UInt8(ascii: ":") else { return false }
                    output.append(UInt8(ascii: ":"))
                    if indents { output.append(UInt8(ascii: " ")) }
                    index += 1
                }
                guard value(depth: depth + 1) else { return false }
                space()
                switch current {
                case UInt8(ascii: ","):
                    output.append(UInt8(ascii: ","))
                    index += 1
                    space()
                case close:
                    newLine(depth: depth)
                    output.append(close)
                    index += 1
                    return true
                default:
                    return false
                }
            }
        }

        /// A string, escapes checked and kept as written.
        private mutating func string(colour: [UInt8]) -> Bool {
            let start = index
            index += 1
            while let byte = current {
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    emit(from: start, colour: colour)
                    return true
                case UInt8(ascii: "\\"):
                    guard let escaped = current else { return false }
                    index += 1
                    switch escaped {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
                         UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
                        continue
                    case UInt8(ascii: "u"):
                        for _ in 0..<4 {
                            guard let digit = current, digit.isHexDigit else { return false }
                            index += 1
                        }
                    default:
                        return false
                    }
                case 0..<0x20:
                    return false  // a raw control character is not JSON
                default:
                    continue
                }
            }
            return false
        }

        /// A number: `-? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?`.
        private mutating func number() -> Bool {
            let start = index
            if current == UInt8(ascii: "-") { index += 1 }
            if current == UInt8(ascii: "0") {
                index += 1
            } else {
                guard digits() else { return false }
            }
            if current == UInt8(ascii: ".") {
                index += 1
                guard digits() else { return false }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
                guard digits() else { return false }
            }
            emit(from: start, colour: Colour.number)
            return true
        }

        /// One or more decimal digits.
        private mutating func digits() -> Bool {
            let start = index
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { index += 1 }
            return index > start
        }

        private mutating func literal(_ word: StaticString) -> Bool {
            let bytes = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard input.count - index >= bytes.count, input[index..<index + bytes.count].elementsEqual(bytes) else { return false }
            let start = index
            index += bytes.count
            emit(from: start, colour: Colour.literal)
            return true
        }
    }
}

extension UInt8 {
    fileprivate var isHexDigit: Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(self) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(self)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(self)
    }
}
