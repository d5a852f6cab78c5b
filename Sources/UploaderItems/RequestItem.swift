import Foundation

/// One request item from the command line, in HTTPie's syntax (or curl's `-F`).
package enum RequestItem: Equatable, Sendable {
    /// `name=value`: a text field.
    case field(name: String, value: String)
    /// `name:=json`: a raw JSON value, sent as written.
    case rawJSON(name: String, json: String)
    /// `name@path`: a file part, or standard input when the path is `-`.
    case file(name: String, source: FileSource)
    /// `Header:value`: a request header; an empty value removes a default header.
    case header(name: String, value: String)
    /// `name==value`: a URL query parameter.
    case query(name: String, value: String)

    /// Where a file part's bytes come from, and how it is labelled.
    package struct FileSource: Equatable, Sendable {
        /// The path, or `-` for standard input.
        package var path: String
        /// An explicit media type (`;type=`), which turns sniffing off.
        package var type: String?
        /// The filename sent to the server (`;filename=`), if overridden.
        package var filename: String?

        package var isStandardInput: Bool { path == "-" }

        /// A source with an explicit path, type and filename.
        package init(path: String, type: String? = nil, filename: String? = nil) {
            self.path = path
            self.type = type
            self.filename = filename
        }
    }
}

extension RequestItem {
    /// The separators an item may use, longest first where two share a start.
    private static let separators: [(text: String, kind: Kind)] = [
        ("==", .query), (":=", .rawJSON), ("=", .field), ("@", .file), (":", .header),
    ]

    private enum Kind { case query, rawJSON, field, file, header }

    /// The characters a backslash can make part of a name.
    private static let escapable: Set<Unicode.Scalar> = ["=", ":", "@", "\\"]

    /// Parses an item such as `title=Hello`, `photo@cat.jpg;type=image/jpeg`,
    /// `count:=3`, `Authorization:Bearer x` or `page==2`.
    ///
    /// The first unescaped separator decides the kind (`==` and `:=` win over
    /// `=` and `:` at the same place); a backslash makes the next separator
    /// character part of the name (`a\=b=c` is the field `a=b`). Separators
    /// are found among Unicode scalars, not characters, so a value that
    /// starts with a combining mark does not hide the separator before it.
    package init(parsing text: String) throws(InputError) {
        let scalars = text.unicodeScalars
        var name = String.UnicodeScalarView()
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            if scalar == "\\" {
                let next = scalars.index(after: index)
                if next < scalars.endIndex, Self.escapable.contains(scalars[next]) {
                    name.append(scalars[next])
                    index = scalars.index(after: next)
                } else {
                    name.append(scalar)
                    index = next
                }
                continue
            }
            let rest = scalars[index...]
            if let (separator, kind) = Self.separators.first(where: { rest.starts(with: $0.text.unicodeScalars) }) {
                let value = String(rest.dropFirst(separator.unicodeScalars.count))
                self = try Self.make(kind, name: String(name), value: value, item: text)
                return
            }
            name.append(scalar)
            index = scalars.index(after: index)
        }
        throw .malformedItem(text, reason: "it has no separator; expected name=value, name:=json, name@file, Header:value or name==value")
    }

    private static func make(_ kind: Kind, name: String, value: String, item: String) throws(InputError) -> RequestItem {
        guard !name.isEmpty else {
            throw .malformedItem(item, reason: "the name before the separator is empty")
        }
        switch kind {
        case .field:
            return .field(name: name, value: value)
        case .query:
            return .query(name: name, value: value)
        case .rawJSON:
            return .rawJSON(name: name, json: value)
        case .header:
            return .header(name: name, value: value.trimmingSpaces)
        case .file:
            return .file(name: name, source: try FileSource(parsing: value, item: item))
        }
    }

    /// Parses curl's `-F` syntax: `name=value`, or `name=@path;type=…;filename=…`.
    package init(parsingFormPart text: String) throws(InputError) {
        let scalars = text.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else {
            throw .malformedItem(text, reason: "-F takes name=value or name=@path")
        }
        let name = String(scalars[..<equals])
        guard !name.isEmpty else { throw .malformedItem(text, reason: "the part name before '=' is empty") }
        let value = scalars[scalars.index(after: equals)...]
        if value.first == "@" {
            self = .file(name: name, source: try FileSource(parsing: String(value.dropFirst()), item: text))
        } else {
            self = .field(name: name, value: String(value))
        }
    }
}

extension RequestItem.FileSource {
    /// Parses `path`, `path;type=MIME`, `path;filename=NAME` or both, in
    /// either order; a value may be double-quoted to hold a `;`.
    package init(parsing text: String, item: String) throws(InputError) {
        let scalars = text.unicodeScalars
        let parameterStart = Self.firstParameter(in: scalars)
        path = String(scalars[..<(parameterStart ?? scalars.endIndex)])
        guard !path.isEmpty else { throw .malformedItem(item, reason: "the file path is empty") }
        guard let parameterStart else { return }

        var rest = scalars[scalars.index(after: parameterStart)...]
        while !rest.isEmpty {
            guard let equals = rest.firstIndex(of: "=") else {
                throw .malformedItem(item, reason: "expected ;type=MIME or ;filename=NAME after the path")
            }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            let value: Substring.UnicodeScalarView
            if rest.first == "\"" {
                let afterQuote = rest.dropFirst()
                guard let close = afterQuote.firstIndex(of: "\"") else {
                    throw .malformedItem(item, reason: "a quoted \(key)= value has no closing quote")
                }
                value = afterQuote[..<close]
                rest = afterQuote[afterQuote.index(after: close)...]
                if let next = rest.first, next != ";" {
                    throw .malformedItem(item, reason: "expected ';' after the quoted \(key)= value")
                }
            } else {
                let end = rest.firstIndex(of: ";") ?? rest.endIndex
                value = rest[..<end]
                rest = rest[end...]
            }
            rest = rest.drop { $0 == ";" }
            switch key {
            case "type":
                guard !value.isEmpty else { throw .malformedItem(item, reason: "type= is empty") }
                type = String(value)
            case "filename":
                filename = String(value)
            default:
                throw .malformedItem(item, reason: "unknown parameter '\(key)'; use ;type=MIME or ;filename=NAME")
            }
        }
    }
}

extension RequestItem.FileSource {
    /// Where the parameters start: the first `;` followed by a name of ASCII
    /// letters and `=` (`;type=`, `;filename=`, or a misspelt one such as
    /// `;foo=`, which is then reported as unknown rather than sought on disk
    /// as part of the path).
    private static func firstParameter(in scalars: String.UnicodeScalarView) -> String.UnicodeScalarView.Index? {
        var index = scalars.startIndex
        while let semicolon = scalars[index...].firstIndex(of: ";") {
            let nameStart = scalars.index(after: semicolon)
            let nameEnd = scalars[nameStart...].firstIndex { !($0.isASCII && $0.properties.isAlphabetic) } ?? scalars.endIndex
            if nameEnd > nameStart, nameEnd < scalars.endIndex, scalars[nameEnd] == "=" { return semicolon }
            index = nameStart
        }
        return nil
    }
}

extension String {
    /// The string without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        return String(String.UnicodeScalarView(unicodeScalars.drop(while: isSpace).reversed().drop(while: isSpace).reversed()))
    }
}
