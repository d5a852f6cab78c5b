/// A JSON text checked against RFC 8259 and kept exactly as written.
///
/// Nothing is parsed into Swift numbers and written back, so
/// `9007199254740993`, `0.1`, `1.5e300` and 30-digit integers reach the server
/// digit for digit. Only the insignificant whitespace around the value is
/// dropped.
///
/// The check is ``JSONScanner``'s, strict: no comments, trailing commas,
/// single quotes, leading zeros, `NaN` or unescaped control characters;
/// nesting is limited to 512 levels. A `\u` escape of a lone UTF-16
/// surrogate (`"\ud800"`) is accepted, as RFC 8259's grammar allows it
/// (section 7; section 8.2 says receivers may treat it differently): the
/// text is sent as written, and what the receiver makes of it is the receiver's.
package struct RawJSON: Sendable, Hashable, CustomStringConvertible {
    /// The JSON text, without surrounding whitespace.
    package let text: String

    /// Checks `text` and keeps it.
    ///
    /// - Throws: ``JSONBodyError`` with code ``JSONBodyError/Code/invalidRawJSON``
    ///   naming the line and column of the first problem.
    package init(validating text: String) throws(JSONBodyError) {
        let bytes = Array(text.utf8)
        var scanner = JSONScanner(bytes, sink: JSONGrammarCheck())
        let range: Range<Int>
        do {
            range = try scanner.scanDocument()
        } catch {
            throw Self.error(error, in: bytes)
        }
        self.text = String(decoding: bytes[range], as: UTF8.self)
    }

    /// A scan failure as an error naming its line and column, counted in
    /// lines and characters from 1.
    private static func error(_ failure: JSONScanFailure, in bytes: [UInt8]) -> JSONBodyError {
        let before = bytes[..<failure.position]
        let line = before.reduce(1) { $1 == 0x0A ? $0 + 1 : $0 }
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? 0
        let column = String(decoding: bytes[lineStart..<failure.position], as: UTF8.self).count + 1
        return .invalidRawJSON(failure.problem, line: line, column: column)
    }

    /// The JSON text.
    package var description: String { text }
}
