import Foundation

/// How two multipart bodies (or requests carrying one) differ, part by part:
/// which part, named by its form field and filename, which of its headers,
/// and which bytes of its body, so a golden test of an upload reads like a
/// review rather than a dump of the whole body.
///
/// Only made when both sides parse as multipart; otherwise ``ByteDiff``
/// compares the bytes as they are.
struct MultipartDiff: CustomStringConvertible {
    private let whole: ByteDiff
    private let expected: MultipartLayout
    private let actual: MultipartLayout

    init?(expected: [UInt8], actual: [UInt8]) {
        guard let expectedLayout = MultipartLayout(expected), let actualLayout = MultipartLayout(actual) else { return nil }
        self.whole = ByteDiff(expected: expected, actual: actual)
        self.expected = expectedLayout
        self.actual = actualLayout
    }

    var description: String {
        var out = [whole.summary]
        let differing = zip(expected.parts, actual.parts).count { $0.0 != $0.1 }
            + abs(expected.parts.count - actual.parts.count)
        out.append("Multipart, part by part: \(differing) of \(max(expected.parts.count, actual.parts.count)) parts differ (- golden, + actual).")
        if expected.boundary != actual.boundary {
            out.append("boundary:")
            out.append("- " + ByteDiff.render(expected.boundary[...]))
            out.append("+ " + ByteDiff.render(actual.boundary[...]))
        }
        if expected.head != actual.head {
            out.append("before the first part (the request's head):")
            out += Self.indented(ByteDiff(expected: Array(expected.head), actual: Array(actual.head)).details)
        }
        for index in 0..<max(expected.parts.count, actual.parts.count) {
            let old = index < expected.parts.count ? expected.parts[index] : nil
            let new = index < actual.parts.count ? actual.parts[index] : nil
            let title = "part \(index + 1) (\((old ?? new)?.label ?? ""))"
            switch (old, new) {
            case let (old?, new?) where old == new:
                out.append(title + ": same")
            case let (old?, new?):
                out.append(title + ":")
                out += Self.headerDiff(old.headers, new.headers)
                if old.body != new.body {
                    let body = ByteDiff(expected: Array(old.body), actual: Array(new.body))
                    out.append("  body differs " + body.summary)
                    out += Self.indented(body.details)
                }
            case (_?, nil):
                out.append(title + ": only in golden, missing from actual")
            case (nil, _?):
                out.append(title + ": only in actual, not in golden")
            case (nil, nil):
                break
            }
        }
        if expected.epilogue != actual.epilogue {
            out.append("after the last part:")
            out += Self.indented(ByteDiff(expected: Array(expected.epilogue), actual: Array(actual.epilogue)).details)
        }
        return out.joined(separator: "\n")
    }

    /// The headers that differ, paired by name (case-insensitive, in order),
    /// as `- Name: value` and `+ Name: value` lines.
    private static func headerDiff(_ old: [ArraySlice<UInt8>], _ new: [ArraySlice<UInt8>]) -> [String] {
        var unmatched = new
        var out: [String] = []
        for line in old {
            guard let match = unmatched.firstIndex(where: { headerName($0) == headerName(line) }) else {
                out.append("  - " + ByteDiff.render(line))
                continue
            }
            if unmatched[match] != line {
                out.append("  header \(String(decoding: line.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self)):")
                out.append("  - " + ByteDiff.render(line))
                out.append("  + " + ByteDiff.render(unmatched[match]))
            }
            unmatched.remove(at: match)
        }
        out += unmatched.map { "  + " + ByteDiff.render($0) }
        return out
    }

    private static func headerName(_ line: ArraySlice<UInt8>) -> String {
        String(decoding: line.prefix { $0 != UInt8(ascii: ":") }, as: UTF8.self).lowercased()
    }

    private static func indented(_ text: String) -> [String] {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
    }
}

/// A multipart body split at its boundary: what comes before the first
/// delimiter (a request's head), each part's header lines and body, and the
/// closing delimiter with anything after it.
struct MultipartLayout {
    struct Part: Equatable {
        /// Header lines without their CRLF.
        let headers: [ArraySlice<UInt8>]
        let body: ArraySlice<UInt8>

        /// The part's form field name and filename, from Content-Disposition.
        var label: String {
            guard let disposition = headers.first(where: {
                String(decoding: $0.prefix(20), as: UTF8.self).lowercased() == "content-disposition:"
            }) else { return "no Content-Disposition" }
            let text = String(decoding: disposition, as: UTF8.self)
            let fields = [("name", "; name=\""), ("filename", "; filename=\"")].compactMap { label, key -> String? in
                guard let start = text.range(of: key)?.upperBound else { return nil }
                return "\(label) \"\(text[start...].prefix { $0 != "\"" })\""
            }
            return fields.isEmpty ? "no name" : fields.joined(separator: ", ")
        }
    }

    let boundary: [UInt8]
    let head: ArraySlice<UInt8>
    let parts: [Part]
    let epilogue: ArraySlice<UInt8>

    private static let crlf: [UInt8] = [0x0D, 0x0A]

    /// `nil` unless the bytes are a multipart body, or an HTTP message whose
    /// `Content-Type` is multipart with a boundary, that splits cleanly.
    init?(_ bytes: [UInt8]) {
        guard let boundary = Self.boundary(in: bytes) else { return nil }
        let delimiter = Array("--".utf8) + boundary
        // The first delimiter starts the bytes, or a line after the head.
        var start: Int
        if bytes.starts(with: delimiter) {
            start = 0
        } else if let found = Self.find(Self.crlf + delimiter, in: bytes[...], from: 0) {
            start = found + 2
        } else {
            return nil
        }
        self.boundary = boundary
        self.head = bytes[..<start]
        var parts: [Part] = []
        while true {
            let after = start + delimiter.count
            if bytes[after...].starts(with: Array("--".utf8)) { break }
            guard bytes[after...].starts(with: Self.crlf),
                  let end = Self.find(Self.crlf + delimiter, in: bytes[...], from: after + 2) else { return nil }
            let part = bytes[(after + 2)..<end]
            if part.starts(with: Self.crlf) {
                parts.append(Part(headers: [], body: part.dropFirst(2)))
            } else if let blank = Self.find(Self.crlf + Self.crlf, in: part, from: part.startIndex) {
                let headers = Self.split(bytes[part.startIndex..<blank])
                parts.append(Part(headers: headers, body: bytes[(blank + 4)..<end]))
            } else {
                return nil
            }
            start = end + 2
        }
        self.parts = parts
        self.epilogue = bytes[start...]
    }

    /// The boundary: from a first line `--boundary`, or from the `boundary`
    /// parameter of a multipart `Content-Type` in a head ending in a blank line.
    private static func boundary(in bytes: [UInt8]) -> [UInt8]? {
        if bytes.starts(with: Array("--".utf8)), let lineEnd = find(crlf, in: bytes[...], from: 0) {
            let boundary = Array(bytes[2..<lineEnd])
            return (1...70).contains(boundary.count) ? boundary : nil
        }
        guard let headEnd = find(crlf + crlf, in: bytes[...], from: 0) else { return nil }
        for line in split(bytes[..<headEnd]) {
            let text = String(decoding: line, as: UTF8.self)
            let lowered = text.lowercased()
            guard lowered.hasPrefix("content-type:"), lowered.contains("multipart/"),
                  let parameter = lowered.range(of: "boundary=") else { continue }
            // The original spelling: the parameter's name is ASCII, so offsets agree.
            let offset = lowered.distance(from: lowered.startIndex, to: parameter.upperBound)
            var value = text.dropFirst(offset)
            if value.first == "\"" {
                value = value.dropFirst().prefix { $0 != "\"" }
            } else {
                value = value.prefix { $0 != ";" && $0 != " " }
            }
            return value.isEmpty ? nil : Array(value.utf8)
        }
        return nil
    }

    private static func split(_ bytes: ArraySlice<UInt8>) -> [ArraySlice<UInt8>] {
        var lines: [ArraySlice<UInt8>] = []
        var start = bytes.startIndex
        while let end = find(crlf, in: bytes, from: start) {
            lines.append(bytes[start..<end])
            start = end + 2
        }
        lines.append(bytes[start...])
        return lines
    }

    /// The first index at or after `from` where `needle` starts.
    private static func find(_ needle: [UInt8], in bytes: ArraySlice<UInt8>, from: Int) -> Int? {
        guard let first = needle.first, from <= bytes.endIndex - needle.count else { return nil }
        var index = from
        while index <= bytes.endIndex - needle.count {
            if bytes[index] == first && bytes[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
