/// Names text that carries no text extension from its first bytes, the way
/// libmagic names the common cases, for about a microsecond a file.
///
/// libmagic spends milliseconds on every text file in its regular-expression
/// rules, and loading its database costs a program megabytes. What those rules
/// tell apart in everyday trees is a handful of formats, each announced in
/// the first line: an interpreter line (`#!/usr/bin/env python3`), an XML
/// declaration, an HTML tag (WHATWG's "rules for identifying an unknown
/// type"), a troff request, RTF; and JSON and CSV, which libmagic checks in
/// code. Other text is `text/plain`: libmagic's finer guesses (C++ from a
/// `class` keyword, m4 from a `dnl`) are not worth a hundred times the
/// cost, and browsers, curl and HTTPie send no better.
enum TextContentRules {
    /// The type the text's first bytes announce, or `nil` for plain text.
    /// `isComplete` says whether `prefix` holds all of it (JSON is only
    /// believed when the whole text parses).
    static func mediaType(of prefix: [UInt8], isComplete: Bool) -> MediaType? {
        let start = firstSignificantByte(of: prefix)
        let text = prefix[start...]
        if text.starts(with: Array("#!".utf8)) { return interpreterType(of: text) }
        if text.starts(with: Array("<?xml".utf8)) {
            return containsSVGRoot(text) ? MediaType(type: "image", subtype: "svg+xml") : MediaType(type: "text", subtype: "xml")
        }
        if startsWithTag(text, "svg") { return MediaType(type: "image", subtype: "svg+xml") }
        if htmlTags.contains(where: { startsWithTag(text, $0) }) || startsWithIgnoringCase(text, "<!doctype html") {
            return MediaType(type: "text", subtype: "html")
        }
        if troffStarts.contains(where: { text.starts(with: Array($0.utf8)) }) { return MediaType(type: "text", subtype: "troff") }
        if text.starts(with: Array(#"{\rtf"#.utf8)) { return MediaType(type: "text", subtype: "rtf") }
        if isComplete, text.first == UInt8(ascii: "{") || text.first == UInt8(ascii: "["),
           (try? RawJSON(validating: String(decoding: prefix, as: UTF8.self))) != nil {
            return MediaType(type: "application", subtype: "json")
        }
        if looksLikeCSV(prefix, isComplete: isComplete) { return MediaType(type: "text", subtype: "csv") }
        return nil
    }

    // MARK: Interpreter lines

    /// The interpreters whose scripts libmagic names, by the command's name
    /// without a version (`python3.11` is `python`).
    private static let interpreters: [String: MediaType] = {
        let shell = MediaType(type: "text", subtype: "x-shellscript")
        var table: [String: MediaType] = [:]
        for name in ["sh", "bash", "dash", "ash", "zsh", "ksh", "mksh", "csh", "tcsh"] { table[name] = shell }
        table["python"] = MediaType(type: "text", subtype: "x-script.python")
        table["perl"] = MediaType(type: "text", subtype: "x-perl")
        table["ruby"] = MediaType(type: "text", subtype: "x-ruby")
        table["node"] = MediaType(type: "application", subtype: "javascript")
        table["nodejs"] = MediaType(type: "application", subtype: "javascript")
        table["php"] = MediaType(type: "text", subtype: "x-php")
        table["lua"] = MediaType(type: "text", subtype: "x-lua")
        for name in ["awk", "gawk", "nawk", "mawk"] { table[name] = MediaType(type: "text", subtype: "x-awk") }
        for name in ["tclsh", "wish"] { table[name] = MediaType(type: "text", subtype: "x-tcl") }
        return table
    }()

    /// The type of a script from its `#!` line: the program's last path
    /// component, or the first word after `env` (and its `-S`).
    private static func interpreterType(of text: ArraySlice<UInt8>) -> MediaType? {
        let line = text.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") && $0 != UInt8(ascii: "\r") }
        var words = line.split(whereSeparator: { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }).map { word in
            String(decoding: word.split(separator: UInt8(ascii: "/")).last ?? word, as: UTF8.self)
        }[...]
        if words.first == "env" {
            words = words.dropFirst().drop { $0.hasPrefix("-") }
        }
        guard let command = words.first else { return nil }
        // python3.11 -> python, tclsh8.6 -> tclsh
        let name = String(command.prefix { !$0.isNumber && $0 != "." })
        return interpreters[name]
    }

    // MARK: Markup

    /// WHATWG's tags that make unknown text HTML, each followed by a space or `>`.
    private static let htmlTags = ["html", "head", "body", "script", "iframe", "h1", "div", "font", "table", "a", "style", "title", "b", "br", "p"]

    /// The starts of troff and man-page sources.
    private static let troffStarts = [#".\""#, #"'\""#, #"'.\""#, ".TH ", ".SH ", ".so ", ".de "]

    private static func startsWithTag(_ text: ArraySlice<UInt8>, _ name: String) -> Bool {
        guard startsWithIgnoringCase(text, "<" + name) else { return false }
        let after = text.index(text.startIndex, offsetBy: name.utf8.count + 1)
        guard after < text.endIndex else { return false }
        return [UInt8(ascii: " "), UInt8(ascii: ">"), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r")].contains(text[after])
    }

    private static func startsWithIgnoringCase(_ text: ArraySlice<UInt8>, _ pattern: String) -> Bool {
        let pattern = Array(pattern.utf8)
        guard text.count >= pattern.count else { return false }
        return zip(text, pattern).allSatisfy { byte, wanted in
            byte == wanted || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte + 32 == wanted)
        }
    }

    /// Whether an XML document's root element is `svg`: the first element
    /// after the declaration, comments and a doctype.
    private static func containsSVGRoot(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        while let open = text[index...].firstIndex(of: UInt8(ascii: "<")) {
            let next = text.index(after: open)
            guard next < text.endIndex else { return false }
            let marker = text[next]
            if marker == UInt8(ascii: "?") || marker == UInt8(ascii: "!") {
                guard let close = text[next...].firstIndex(of: UInt8(ascii: ">")) else { return false }
                index = text.index(after: close)
                continue
            }
            return startsWithTag(text[open...], "svg")
        }
        return false
    }

    /// Where the text starts past a UTF-8 byte order mark and white space.
    private static func firstSignificantByte(of prefix: [UInt8]) -> Int {
        var index = prefix.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < prefix.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(prefix[index]) { index += 1 }
        return index
    }

    // MARK: CSV

    /// Whether the text is comma-separated values as libmagic's check sees
    /// them: at least three lines, each with the same number (one or more)
    /// of commas outside double quotes (two lines with a comma each are
    /// prose as often as a table, and libmagic calls them plain text). A prefix's last line, which may be cut
    /// short, is not counted.
    private static func looksLikeCSV(_ prefix: [UInt8], isComplete: Bool) -> Bool {
        var commasPerLine: Int?
        var lines = 0
        var commas = 0
        var quoted = false
        for byte in prefix {
            switch byte {
            case UInt8(ascii: "\""): quoted.toggle()
            case UInt8(ascii: ",") where !quoted: commas += 1
            case UInt8(ascii: "\n") where !quoted:
                guard commas > 0, commasPerLine == nil || commasPerLine == commas else { return false }
                commasPerLine = commas
                lines += 1
                commas = 0
            default: break
            }
        }
        if isComplete, commas > 0 {
            guard commasPerLine == nil || commasPerLine == commas else { return false }
            lines += 1
        }
        return lines >= 3
    }
}
