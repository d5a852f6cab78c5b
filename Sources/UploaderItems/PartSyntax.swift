/// curl's `-F` value syntax, shared by `-F` parts and HTTPie-style file
/// items: a word (a text value or a path), then `;type=` and `;filename=`
/// parameters, each word bare or double-quoted.
///
/// - A quoted word runs to the closing quote; inside it `\"` is a quote,
///   `\\` a backslash, and `;` is text (`a="x;y"`, `f=@"my;file.txt"`).
/// - A bare word ends at the first `;` that starts a parameter, a name of
///   letters and `=` (`;type=`, or a misspelt `;tpye=`, which is reported
///   rather than taken as part of the value). In an HTTPie-style item a `;`
///   followed by anything else is text (`f@x;y.txt` names the file `x;y.txt`);
///   in a `-F` part, where curl would end the value there and drop the rest
///   with a warning, it is an error that says to quote the value.
/// - `type=`'s bare value carries its own parameters up to the next known
///   parameter: `;type=text/plain;charset=utf-8;filename=a.txt`.
/// - Spaces after a `;` are skipped, as curl does.
enum PartSyntax {
    /// A parsed value: its word and the parameters after it.
    struct Parsed: Equatable {
        var word: String
        var type: String?
        var filename: String?
    }

    /// curl's parameters, which end a bare `type=` value.
    private static let curlParameters: Set<String> = ["type", "filename", "headers", "encoder"]

    /// Parses `text`, the part of an item after `name=` (and after `@`).
    ///
    /// - Throws: ``InputError`` quoting `item`: an unterminated quote, text
    ///   after a closing quote, an empty `type=`, or a parameter other than
    ///   `type` and `filename`.
    static func parse(_ text: Substring.UnicodeScalarView, item: String, asCurl: Bool) throws(InputError) -> Parsed {
        var rest = text
        var parsed = Parsed(word: try word(from: &rest, item: item, what: "value", asCurl: asCurl))
        while let start = rest.first {
            guard start == ";" else {
                throw .malformedItem(item, reason: "expected ';' after the quoted value")
            }
            rest = rest.dropFirst().drop { $0 == " " || $0 == "\t" }
            if rest.isEmpty { break }  // a trailing ';', as curl allows
            guard let equals = rest.firstIndex(of: "="), rest[..<equals].allSatisfy(isParameterLetter), equals > rest.startIndex else {
                throw .malformedItem(item, reason: "expected ;type=MIME or ;filename=NAME after the value; double-quote a value that holds ';'")
            }
            let key = String(rest[..<equals])
            rest = rest[rest.index(after: equals)...]
            switch key {
            case "type":
                let type = try typeValue(from: &rest, item: item)
                guard !type.isEmpty else { throw .malformedItem(item, reason: "type= is empty") }
                parsed.type = type
            case "filename":
                parsed.filename = try word(from: &rest, item: item, what: "filename= value", asCurl: asCurl)
            case "headers", "encoder":
                throw .malformedItem(item, reason: "curl's ;\(key)= is not supported; use ;type=MIME or ;filename=NAME")
            default:
                throw .malformedItem(item, reason: "unknown parameter '\(key.echoed)'; use ;type=MIME or ;filename=NAME, or double-quote a value that holds ';'")
            }
        }
        return parsed
    }

    /// A quoted or bare word at the start of `rest`, which is left after it.
    private static func word(from rest: inout Substring.UnicodeScalarView, item: String, what: String, asCurl: Bool) throws(InputError) -> String {
        if rest.first == "\"" { return try quoted(from: &rest, item: item, what: what) }
        let end = parameterStart(in: rest, ending: nil) ?? rest.endIndex
        if asCurl, let semicolon = rest[..<end].firstIndex(of: ";") {
            let kept = String(rest[..<semicolon])
            throw .malformedItem(item, reason: "curl would send '\(kept.echoed)' and drop what follows ';'; double-quote a value that holds ';'")
        }
        let word = String(rest[..<end])
        rest = rest[end...]
        return word
    }

    /// `type=`'s value: quoted, or bare up to a known parameter, its own
    /// `;charset=…` included.
    private static func typeValue(from rest: inout Substring.UnicodeScalarView, item: String) throws(InputError) -> String {
        if rest.first == "\"" { return try quoted(from: &rest, item: item, what: "type= value") }
        let end = parameterStart(in: rest, ending: curlParameters) ?? rest.endIndex
        let value = String(rest[..<end])
        rest = rest[end...]
        return value
    }

    /// A double-quoted word with `\"` and `\\` escapes; after it, only
    /// spaces, then `;` or the end.
    private static func quoted(from rest: inout Substring.UnicodeScalarView, item: String, what: String) throws(InputError) -> String {
        var word = String.UnicodeScalarView()
        var index = rest.index(after: rest.startIndex)
        while index < rest.endIndex {
            let scalar = rest[index]
            if scalar == "\"" {
                rest = rest[rest.index(after: index)...].drop { $0 == " " || $0 == "\t" }
                if let next = rest.first, next != ";" {
                    throw .malformedItem(item, reason: "expected ';' after the quoted \(what)")
                }
                return String(word)
            }
            if scalar == "\\" {
                let next = rest.index(after: index)
                if next < rest.endIndex, rest[next] == "\"" || rest[next] == "\\" {
                    word.append(rest[next])
                    index = rest.index(after: next)
                    continue
                }
            }
            word.append(scalar)
            index = rest.index(after: index)
        }
        throw .malformedItem(item, reason: "a quoted \(what) has no closing quote")
    }

    /// Where the first parameter starts: a `;`, spaces, letters and `=`; with
    /// `names`, only a parameter of one of those names counts.
    private static func parameterStart(in scalars: Substring.UnicodeScalarView, ending names: Set<String>?) -> Substring.UnicodeScalarView.Index? {
        var index = scalars.startIndex
        while let semicolon = scalars[index...].firstIndex(of: ";") {
            let nameStart = scalars[scalars.index(after: semicolon)...].firstIndex { $0 != " " && $0 != "\t" } ?? scalars.endIndex
            let nameEnd = scalars[nameStart...].firstIndex { !isParameterLetter($0) } ?? scalars.endIndex
            if nameEnd > nameStart, nameEnd < scalars.endIndex, scalars[nameEnd] == "=",
               names.map({ $0.contains(String(scalars[nameStart..<nameEnd])) }) ?? true {
                return semicolon
            }
            index = scalars.index(after: semicolon)
        }
        return nil
    }

    private static func isParameterLetter(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII && scalar.properties.isAlphabetic
    }
}
