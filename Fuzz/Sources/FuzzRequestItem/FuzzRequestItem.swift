import FuzzSupport
import FuzzUploaderItems

/// Feeds arbitrary text to the CLI's item parsers (`name=value`, `-F` parts).
///
/// Invariants: parsing never traps; an error quotes the item as messages
/// echo it (control characters escaped, cut after 200 characters); a parsed item
/// written back with its name escaped parses to the same item (where the
/// grammar is unambiguous); only a header's name is never empty (others may
/// be, as the peers allow); a `-F` name holds no `=`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestItem(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let text = input.rest()
    do {
        let item = try RequestItem(parsing: text)
        check(item, parsedFrom: text)
    } catch {
        fuzzCheck(quotes(error.description, text.echoed), "error \(error.description.debugDescription) does not quote \(text.debugDescription)")
    }
    do {
        let item = try RequestItem(parsingFormPart: text)
        switch item {
        case .field(let name, _), .file(let name, _), .textPart(let name, _, _, _):
            fuzzCheck(!name.unicodeScalars.contains("="), "-F name \(name.debugDescription) from \(text.debugDescription)")
        case .fromFile(.formText, let name, let path):
            // curl's -F 'name=<path': a text field from the file at path.
            fuzzCheck(!name.unicodeScalars.contains("="), "-F name \(name.debugDescription) from \(text.debugDescription)")
            fuzzCheck(!path.isEmpty, "-F '<' with an empty path from \(text.debugDescription)")
        default:
            fuzzCheck(false, "-F gave \(item) for \(text.debugDescription)")
        }
    } catch {
        fuzzCheck(quotes(error.description, text.echoed), "-F error \(error.description.debugDescription) does not quote \(text.debugDescription)")
    }
    return 0
}

private func check(_ item: RequestItem, parsedFrom text: String) {
    let written: String?
    switch item {
    case .field(let name, let value):
        written = value.unicodeScalars.first == "=" ? nil : escape(name) + "=" + escapeValue(value)
    case .query(let name, let value):
        written = escape(name) + "==" + escapeValue(value)
    case .rawJSON(let name, let json):
        written = escape(name) + ":=" + escapeValue(json)
    case .header(let name, let value):
        fuzzCheck(!name.isEmpty, "empty header name from \(text.debugDescription)")
        fuzzCheck(value == value.trimmingSpaces, "header value \(value.debugDescription) keeps outer spaces")
        written = value.unicodeScalars.first == "=" ? nil : escape(name) + ":" + escapeValue(value)
    case .fromFile(let kind, let name, let path):
        fuzzCheck(!path.isEmpty, "empty path from \(text.debugDescription)")
        if case .formText = kind { fuzzCheck(false, "an item made curl's -F 'name=<path' from \(text.debugDescription)") }
        let separator = switch kind {
        case .field: "=@"
        case .rawJSON: ":=@"
        case .header: ":@"
        case .query: "==@"
        case .formText: "=<"
        }
        written = escape(name) + separator + path
    case .file(let name, let source):
        fuzzCheck(!source.path.isEmpty, "empty file path from \(text.debugDescription)")
        // Quoted words (curl's syntax) may hold anything, parameters included;
        // the checks below are for bare ones.
        guard !text.unicodeScalars.contains("\"") else {
            written = nil
            break
        }
        // Scalar by scalar: String.contains matches canonical equivalents, and
        // U+037E GREEK QUESTION MARK is one of ";", but not a separator.
        let keeps = { (parameter: String) in source.path.unicodeScalars.firstRange(of: parameter.unicodeScalars) != nil }
        fuzzCheck(!keeps(";type=") && !keeps(";filename="), "path \(source.path.debugDescription) kept a parameter")
        if source.type == "" { fuzzCheck(false, "empty type= accepted from \(text.debugDescription)") }
        let plain = { (value: String) in !value.unicodeScalars.contains { $0 == ";" || $0 == "\"" || $0 == "=" } }
        if (source.type.map(plain) ?? true), (source.filename.map(plain) ?? true) {
            var text = escape(name) + "@" + source.path
            if let type = source.type { text += ";type=" + type }
            if let filename = source.filename { text += ";filename=" + filename }
            written = text
        } else {
            written = nil
        }
    case .textPart:
        fuzzCheck(false, "an HTTPie item gave a -F text part for \(text.debugDescription)")
        written = nil
    }
    guard let written else { return }
    do {
        let again = try RequestItem(parsing: written)
        fuzzCheck(again == item, "\(text.debugDescription) parsed to \(item), but its rewrite \(written.debugDescription) parsed to \(again)")
    } catch {
        fuzzCheck(false, "\(text.debugDescription) parsed to \(item), but its rewrite \(written.debugDescription) failed: \(error)")
    }
}

/// A value as typed: one that starts with `@` needs `\@`, the one escape a value knows.
private func escapeValue(_ value: String) -> String {
    value.unicodeScalars.first == "@" ? "\\" + value : value
}

/// A name with every separator character and backslash escaped, scalar by
/// scalar as the parser reads it (a combining mark joins the `@` before it
/// into one `Character`, which a character loop would not escape).
private func escape(_ name: String) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in name.unicodeScalars {
        if scalar == "=" || scalar == ":" || scalar == "@" || scalar == "\\" { escaped.append("\\") }
        escaped.append(scalar)
    }
    return String(escaped)
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzRequestItem_main")
public func fuzzRequestItemMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzRequestItem)
}

/// Whether `message` holds `text` byte for byte (a `Character` search would
/// miss text that starts with a combining mark, which joins the quote before it).
private func quotes(_ message: String, _ text: String) -> Bool {
    text.isEmpty || Array(message.utf8).firstRange(of: Array(text.utf8)) != nil
}
