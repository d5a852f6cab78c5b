/// One of the AWS shared files (`~/.aws/credentials`, `~/.aws/config`), read
/// as botocore reads them: Python's `configparser.RawConfigParser`, then
/// botocore's nested sub-sections.
///
/// The rules, as `RawConfigParser` has them (not a general INI dialect):
/// - a line whose first non-blank character is `#` or `;` is a comment
///   (there are no comments after a value: `key = a # b` is `a # b`);
/// - `[name]` starts a section, up to the line's last `]`; names keep their
///   case, and a name repeated in one file is an error;
/// - `key = value` or `key: value`, split at the first `=` or `:`; keys are
///   lower-cased and trimmed, values trimmed; a key repeated in a section is an error;
/// - a line indented deeper than its key's line continues that value;
///   a value that starts with such a line (`s3 =` then indented `key = value`
///   lines) is a sub-section;
/// - `[DEFAULT]` (upper case) gives every section its keys as defaults.
///
/// Errors name the file and line, never a line's text: it may hold a secret.
struct AWSConfigFile: Sendable {
    /// A value: text, or the `key = value` lines of a sub-section.
    enum Value: Sendable, Equatable {
        case text(String)
        case section([String: String])

        /// The text, or `nil` for a sub-section.
        var text: String? {
            if case .text(let text) = self { return text }
            return nil
        }
    }

    /// The sections by name (`default`, `profile dev`, `dev`), `[DEFAULT]`'s keys merged in.
    let sections: [String: [String: Value]]

    /// Reads `text`, the content of the file at `path` (which errors name).
    init(parsing text: String, path: String) throws(S3Error) {
        func failure(_ line: Int, _ reason: String) -> S3Error {
            S3Error(code: .invalidConfiguration, description: "\(path), line \(line): \(reason)")
        }
        var sections: [String: [String: [String]]] = [:]
        var order: [String] = []
        var defaults: [String: [String]] = [:]
        var current: String?  // nil before the first header; "" for [DEFAULT]
        var key: String?
        var keyIndent = Int.max
        var seenKeys: Set<String> = []

        func append(_ value: String, to key: String) {
            if current == "" { defaults[key, default: []].append(value) } else if let current { sections[current, default: [:]][key, default: []].append(value) }
        }

        // "\r\n" is one Character in Swift: split at any line end, as Python's universal newlines do.
        for (index, line) in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).enumerated() {
            let number = index + 1
            let content = line.trimmingPythonWhitespace()
            if content.first == "#" || content.first == ";" { continue }
            if content.isEmpty {
                // A blank line inside a value is kept (and trimmed off its end later).
                if let key { append("", to: key) }
                continue
            }
            let indent = line.prefix { $0 == " " || $0 == "\t" }.count
            if let key, indent > keyIndent {
                append(String(content), to: key)
                continue
            }
            keyIndent = indent
            if content.first == "[", let close = content.lastIndex(of: "]"), content.index(after: content.startIndex) < close {
                let name = String(content[content.index(after: content.startIndex)..<close])
                key = nil
                if name == "DEFAULT" {
                    current = ""
                    continue
                }
                guard !order.contains(name) else { throw failure(number, "the section [\(name)] appears twice") }
                order.append(name)
                sections[name] = [:]
                current = name
                continue
            }
            guard current != nil else { throw failure(number, "a setting before any [section]") }
            guard let delimiter = content.firstIndex(where: { $0 == "=" || $0 == ":" }) else {
                throw failure(number, "neither a [section], a 'key = value' line nor an indented continuation")
            }
            let name = content[..<delimiter].trimmingPythonWhitespace().lowercased()
            guard !name.isEmpty else { throw failure(number, "a value with no key before its '\(content[delimiter])'") }
            let scoped = "\(current ?? "")\u{0}\(name)"
            guard !seenKeys.contains(scoped) else {
                throw failure(number, "the key '\(name)' appears twice in [\(current == "" ? "DEFAULT" : current ?? "")]")
            }
            seenKeys.insert(scoped)
            key = name
            if current == "" { defaults[name] = [] } else if let current { sections[current, default: [:]][name] = [] }
            append(String(content[content.index(after: delimiter)...].trimmingPythonWhitespace()), to: name)
        }

        func value(_ lines: [String], key: String, section: String) throws(S3Error) -> Value {
            let joined = lines.joined(separator: "\n")
            let text = String(joined.reversed().drop { $0.isPythonWhitespace }.reversed())
            guard text.hasPrefix("\n") else { return .text(text) }
            var nested: [String: String] = [:]
            for entry in text.split(separator: "\n") {
                let entry = entry.trimmingPythonWhitespace()
                guard !entry.isEmpty else { continue }
                // botocore splits sub-section lines at `=` only.
                guard let equals = entry.firstIndex(of: "=") else {
                    throw S3Error(code: .invalidConfiguration, description: "\(path): a line of the sub-section '\(key)' in [\(section)] has no '='")
                }
                nested[String(entry[..<equals].trimmingPythonWhitespace())] = String(entry[entry.index(after: equals)...].trimmingPythonWhitespace())
            }
            return .section(nested)
        }
        var result: [String: [String: Value]] = [:]
        for name in order {
            var merged: [String: Value] = [:]
            for (key, lines) in defaults { merged[key] = try value(lines, key: key, section: "DEFAULT") }
            for (key, lines) in sections[name] ?? [:] { merged[key] = try value(lines, key: key, section: name) }
            result[name] = merged
        }
        self.sections = result
    }

    /// The profiles of a config file: `[profile NAME]` sections (the name
    /// split as a shell would, so `[profile "my name"]` works) and
    /// `[default]`; other sections (`[sso-session …]`, `[services …]`) are not profiles.
    var configProfiles: [String: [String: Value]] {
        var profiles: [String: [String: Value]] = [:]
        for (name, values) in sections {
            if name == "default" {
                profiles[name] = values
            } else if name.hasPrefix("profile") {
                let words = name.shellWords
                if words.count == 2 { profiles[words[1]] = values }
            }
        }
        return profiles
    }

    /// The `[services NAME]` sections of a config file, by `NAME`.
    var serviceSections: [String: [String: Value]] {
        var services: [String: [String: Value]] = [:]
        for (name, values) in sections where name.hasPrefix("services") {
            let words = name.shellWords
            if words.count == 2 { services[words[1]] = values }
        }
        return services
    }
}

extension Character {
    /// Whitespace as Python's `str.strip()` sees it, for the ASCII that AWS files hold.
    var isPythonWhitespace: Bool { self == " " || self == "\t" || self == "\r" || self == "\n" || self == "\u{0B}" || self == "\u{0C}" }
}

extension StringProtocol {
    /// The text without leading and trailing whitespace, as Python's `strip()`.
    func trimmingPythonWhitespace() -> SubSequence {
        let start = firstIndex { !$0.isPythonWhitespace } ?? endIndex
        let end = lastIndex { !$0.isPythonWhitespace }.map { index(after: $0) } ?? start
        return self[start..<Swift.max(start, end)]
    }

    /// The words of a section name as Python's `shlex.split` makes them:
    /// split at whitespace, with `'…'` and `"…"` quoting; `[]` when a quote is unclosed.
    var shellWords: [String] {
        var words: [String] = []
        var word = ""
        var inWord = false
        var quote: Character?
        for character in self {
            if let open = quote {
                if character == open { quote = nil } else { word.append(character) }
            } else if character == "\"" || character == "'" {
                quote = character
                inWord = true
            } else if character.isPythonWhitespace {
                if inWord { words.append(word) }
                word = ""
                inWord = false
            } else {
                word.append(character)
                inWord = true
            }
        }
        guard quote == nil else { return [] }
        if inWord { words.append(word) }
        return words
    }
}
