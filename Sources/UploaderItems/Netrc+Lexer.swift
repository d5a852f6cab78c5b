extension Netrc {
    /// A token of a netrc file: its text, and whether it was quoted (a
    /// quoted token is never a keyword).
    struct Token {
        var text: String
        var quoted: Bool

        /// The keyword it is, lower-cased, or `nil` for a value.
        var keyword: String? {
            guard !quoted else { return nil }
            let word = text.lowercased()
            return ["machine", "default", "login", "password", "account", "macdef"].contains(word) ? word : nil
        }
    }

    /// Reads a netrc file's tokens one at a time, as curl's lexer does,
    /// leaving comment lines and macro bodies out.
    struct Lexer {
        /// The file's lines with their 1-based numbers, comment lines left out.
        private let lines: [(number: Int, text: Substring)]
        /// The line being read and the position in it.
        private var line = 0
        private var position: Substring.Index

        init(_ text: String) {
            // "\r\n" is one Character: lines end at either form.
            let all = text.replacing("\r\n", with: "\n").split(separator: "\n", omittingEmptySubsequences: false)
            // A line whose first non-blank character is `#` is dropped, as curl
            // drops it on load: it neither holds tokens nor ends a macro.
            lines = all.enumerated().compactMap { index, line in
                line.drop { $0 == " " || $0 == "\t" }.first == "#" ? nil : (index + 1, line)
            }
            position = lines.first?.text.startIndex ?? "".startIndex
        }

        /// The next token, or `nil` at the end of the file. Where a keyword is
        /// expected, a token starting with `#` ends the line as a comment.
        mutating func next(expectingValue: Bool) throws(SyntaxError) -> Token? {
            while line < lines.count {
                let text = lines[line].text
                while position < text.endIndex, Self.isBlank(text[position]) { position = text.index(after: position) }
                guard position < text.endIndex else {
                    moveToNextLine()
                    continue
                }
                if text[position] == "\"" {
                    return Token(text: try quoted(in: text), quoted: true)
                }
                let start = position
                while position < text.endIndex, !Self.isBlank(text[position]) { position = text.index(after: position) }
                let word = String(text[start..<position])
                if !expectingValue, word.hasPrefix("#") {
                    moveToNextLine()
                    continue
                }
                return Token(text: word, quoted: false)
            }
            return nil
        }

        /// Skips the rest of this line and the lines after it up to and
        /// including the next empty one (a line holding only `\r` is empty).
        mutating func skipToEmptyLine() {
            moveToNextLine()
            while line < lines.count, lines[line].text.contains(where: { $0 != "\r" }) { line += 1 }
            position = line < lines.count ? lines[line].text.startIndex : "".startIndex
            moveToNextLine()
        }

        private mutating func moveToNextLine() {
            line += 1
            position = line < lines.count ? lines[line].text.startIndex : "".startIndex
        }

        /// A quoted value from `position` (at its opening quote) to its
        /// closing quote, escapes decoded.
        private mutating func quoted(in text: Substring) throws(SyntaxError) -> String {
            var value = ""
            var index = text.index(after: position)
            var escaped = false
            while index < text.endIndex {
                let character = text[index]
                index = text.index(after: index)
                if escaped {
                    escaped = false
                    switch character {
                    case "n": value.append("\n")
                    case "r": value.append("\r")
                    case "t": value.append("\t")
                    default: value.append(character)
                    }
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    position = index
                    return value
                } else {
                    value.append(character)
                }
            }
            throw SyntaxError(line: lines[line].number)
        }

        private static func isBlank(_ character: Character) -> Bool {
            character == " " || character == "\t" || character == "\r"
        }
    }
}
