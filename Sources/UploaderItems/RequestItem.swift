import Foundation

/// One request item from the command line, in HTTPie's syntax (or curl's `-F`).
package enum RequestItem: Equatable, Sendable {
    /// `name=value`: a text field.
    case field(name: String, value: String)
    /// `name:=json`: a raw JSON value, sent as written.
    case rawJSON(name: String, json: String)
    /// `name@path`: a file part, or standard input when the path is `-`.
    case file(name: String, source: FileSource)
    /// `-F 'name=value;type=…;filename=…'`: a text part with a content
    /// type or filename of its own (curl's syntax; multipart only).
    case textPart(name: String, value: String, type: String?, filename: String?)
    /// `Header:value`: a request header; an empty value removes a default header.
    case header(name: String, value: String)
    /// `name==value`: a URL query parameter.
    case query(name: String, value: String)
    /// `name=@path`, `name:=@path`, `Header:@path` or `name==@path`
    /// (HTTPie's items from files): the item `kind` names, its value to be
    /// read from the file at `path` before anything is built. The command
    /// line's reader (`Invocation`) reads each such file once and puts the
    /// plain item in its place, so no later step sees this case.
    case fromFile(kind: ValueKind, name: String, path: String)

    /// The kinds of item whose value may come from a file.
    package enum ValueKind: Equatable, Sendable {
        /// `name=@path`: a text field whose value is the file's content as it is.
        case field
        /// `name:=@path`: a raw JSON value read from the file.
        case rawJSON
        /// `Header:@path`: a header value read from the file, whitespace trimmed.
        case header
        /// `name==@path`: a query value read from the file, whitespace trimmed.
        case query
        /// curl's `-F 'name=<path;type=MIME'`: a text part whose value is
        /// the file's content as it is, declared as `type` when one is given.
        case formText(type: String?)
    }

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

    /// An empty name is allowed, as both peers send it (`name=""`), except
    /// for a header, which needs one.
    ///
    /// A value that starts with `@` is read from the file it names (HTTPie's
    /// `=@`, `:=@`, `:@` and `==@`); one that starts with `\@` is sent from
    /// its `@` on (`note=\@home` sends `@home`). That is the one backslash
    /// escape a value knows: anywhere else a backslash is sent as typed.
    private static func make(_ kind: Kind, name: String, value: String, item: String) throws(InputError) -> RequestItem {
        if kind == .header, name.isEmpty { throw .malformedItem(item, reason: "the header name before ':' is empty") }
        let valueKind: ValueKind
        switch kind {
        case .field: valueKind = .field
        case .query: valueKind = .query
        case .rawJSON: valueKind = .rawJSON
        case .header: valueKind = .header
        case .file: return .file(name: name, source: try FileSource(parsing: value, item: item, asCurl: false))
        }
        var value = Substring(value)
        if value.unicodeScalars.first == "@" {
            let path = String(value.unicodeScalars.dropFirst())
            guard !path.isEmpty else { throw .malformedItem(item, reason: "the file path after '@' is empty (write \\@ for a value that starts with a literal @)") }
            return .fromFile(kind: valueKind, name: name, path: path)
        }
        // A header's value is trimmed first, so `X: \@a` sends `@a` as `X:\@a` does.
        if valueKind == .header { value = Substring(String(value).trimmingSpaces) }
        if value.unicodeScalars.starts(with: "\\@".unicodeScalars) {
            value = Substring(value.unicodeScalars.dropFirst())
        }
        switch valueKind {
        case .field: return .field(name: name, value: String(value))
        case .query: return .query(name: name, value: String(value))
        case .rawJSON: return .rawJSON(name: name, json: String(value))
        case .header: return .header(name: name, value: String(value))
        case .formText: return .field(name: name, value: String(value))  // never chosen above: -F's own
        }
    }

    /// Parses curl's `-F` syntax: `name=value`, `name=@path` or
    /// `name=<path` (a text field holding the file's content), each
    /// followed by `;type=…` and `;filename=…`, values optionally
    /// double-quoted (``PartSyntax``). The name ends at the first `=` and may
    /// be empty.
    package init(parsingFormPart text: String) throws(InputError) {
        let scalars = text.unicodeScalars
        guard let equals = scalars.firstIndex(of: "=") else {
            throw .malformedItem(text, reason: "-F takes name=value or name=@path")
        }
        let name = String(scalars[..<equals])
        let value = scalars[scalars.index(after: equals)...]
        if value.first == "@" {
            self = .file(name: name, source: try FileSource(parsing: String(value.dropFirst()), item: text, asCurl: true))
            return
        }
        if value.first == "<" {
            // curl's text field from a file: its content, never its name.
            let source = try FileSource(parsing: String(value.dropFirst()), item: text, asCurl: true)
            if source.filename != nil {
                throw .malformedItem(text, reason: "a text field read with '<' carries no filename; use name=@path for a file part")
            }
            self = .fromFile(kind: .formText(type: source.type), name: name, path: source.path)
            return
        }
        let parsed = try PartSyntax.parse(value, item: text, asCurl: true)
        if parsed.type == nil, parsed.filename == nil {
            self = .field(name: name, value: parsed.word)
        } else {
            self = .textPart(name: name, value: parsed.word, type: parsed.type, filename: parsed.filename)
        }
    }
}

extension RequestItem.FileSource {
    /// Parses `path`, `path;type=MIME`, `path;filename=NAME` or both, in
    /// either order, with curl's quoting (``PartSyntax``); `asCurl` for a
    /// `-F` part, which refuses a `;` that curl would cut the path at.
    package init(parsing text: String, item: String, asCurl: Bool) throws(InputError) {
        let parsed = try PartSyntax.parse(Substring(text).unicodeScalars, item: item, asCurl: asCurl)
        guard !parsed.word.isEmpty else { throw .malformedItem(item, reason: "the file path is empty") }
        self.init(path: parsed.word, type: parsed.type, filename: parsed.filename)
    }
}

extension String {
    /// The string without leading and trailing whitespace (spaces, tabs, CR,
    /// LF, form feeds, vertical tabs), as HTTPie trims a header value read
    /// from a file.
    package var trimmingWhitespace: String {
        let whitespace: Set<Unicode.Scalar> = [" ", "\t", "\r", "\n", "\u{0B}", "\u{0C}"]
        let isSpace: (Unicode.Scalar) -> Bool = { whitespace.contains($0) }
        return String(String.UnicodeScalarView(unicodeScalars.drop(while: isSpace).reversed().drop(while: isSpace).reversed()))
    }

    /// The string without leading and trailing spaces and tabs.
    package var trimmingSpaces: String {
        let isSpace: (Unicode.Scalar) -> Bool = { $0 == " " || $0 == "\t" }
        return String(String.UnicodeScalarView(unicodeScalars.drop(while: isSpace).reversed().drop(while: isSpace).reversed()))
    }
}
