import HTTPBody

/// Shows a JSON document for a reader, as HTTPie does: indented by four
/// spaces, one member per line, tokens coloured with ANSI escapes.
///
/// Tokens are copied as the server wrote them: numbers are never rounded
/// through floating point, string escapes stay escaped (so a `\u001b` in a
/// value cannot drive the terminal), and members keep their order. What is
/// not exactly one JSON value (RFC 8259) is not formatted at all: the caller
/// writes the server's bytes instead. Without colours the output holds no
/// escape byte, since a JSON document holds none outside its escapes.
package struct JSONPrettyPrinter {
    /// Re-indent the document (otherwise the server's own spacing is kept).
    package var indents: Bool
    /// Colour keys, strings, numbers and literals.
    package var colours: Bool

    /// A printer that re-indents, colours, both or neither.
    package init(indents: Bool, colours: Bool) {
        (self.indents, self.colours) = (indents, colours)
    }

    /// Nesting past this is shown as sent, rather than formatted: the
    /// scanner's limit.
    package static var maximumDepth: Int { JSONScanner<Writer>.maximumDepth }

    /// The escapes for each kind of token (close to HTTPie's terminal style).
    enum Colour {
        static let key: [UInt8] = Array("\u{1B}[34m".utf8)
        static let string: [UInt8] = Array("\u{1B}[33m".utf8)
        static let number: [UInt8] = Array("\u{1B}[36m".utf8)
        static let literal: [UInt8] = Array("\u{1B}[35m".utf8)
        static let reset: [UInt8] = Array("\u{1B}[0m".utf8)
    }

    /// The document formatted, ending with a newline when indented; `nil`
    /// when `document` is not one JSON value (the package's one JSON
    /// grammar, `JSONScanner`, decides).
    package func format(_ document: [UInt8]) -> [UInt8]? {
        var writer = Writer(input: document, indents: indents, colours: colours)
        writer.output.reserveCapacity(document.count + document.count / 2)
        var scanner = JSONScanner(document, sink: writer)
        guard (try? scanner.scanDocument()) != nil else { return nil }
        writer = scanner.sink
        if indents { writer.output.append(UInt8(ascii: "\n")) }
        return writer.output
    }
    /// Writes each token the scanner meets: copied as the input has it,
    /// coloured, with the input's whitespace or a new indentation.
    struct Writer: JSONScanSink {
        let input: [UInt8]
        let indents: Bool
        let colours: Bool
        var output: [UInt8] = []

        init(input: [UInt8], indents: Bool, colours: Bool) {
            (self.input, self.indents, self.colours) = (input, indents, colours)
        }

        mutating func receive(_ event: JSONScanEvent) {
            switch event {
            case .whitespace(let range):
                // Kept when not re-indenting.
                if !indents { output.append(contentsOf: input[range]) }
            case .open(let byte, _):
                output.append(byte)
            case .elementStart(let depth):
                newLine(depth: depth)
            case .colon:
                output.append(UInt8(ascii: ":"))
                if indents { output.append(UInt8(ascii: " ")) }
            case .comma:
                output.append(UInt8(ascii: ","))
            case .close(let byte, let depth, let isEmpty):
                // `{}` and `[]` stay on one line.
                if !isEmpty { newLine(depth: depth) }
                output.append(byte)
            case .token(let kind, let range):
                let colour = switch kind {
                case .key: Colour.key
                case .string: Colour.string
                case .number: Colour.number
                case .literal: Colour.literal
                }
                if colours { output.append(contentsOf: colour) }
                output.append(contentsOf: input[range])
                if colours { output.append(contentsOf: Colour.reset) }
            }
        }

        private mutating func newLine(depth: Int) {
            guard indents else { return }
            output.append(UInt8(ascii: "\n"))
            output.append(contentsOf: repeatElement(UInt8(ascii: " "), count: depth * 4))
        }
    }
}
