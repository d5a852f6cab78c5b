/// Reads an S3 answer's XML into ``S3XMLElement``s: what a hostile or broken
/// server sends becomes ``S3XMLReader/Failure``, never a trap.
///
/// Limits keep a hostile answer cheap: nesting at most 32 deep (S3's
/// documents use 3), and the caller bounds the document's size.
struct S3XMLReader {
    /// Why a document could not be read, with the byte offset.
    struct Failure: Error, Sendable, CustomStringConvertible {
        var description: String
    }

    static let maximumDepth = 32

    private let bytes: [UInt8]
    private var index = 0

    private init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The document's root element.
    static func parse(_ bytes: [UInt8]) throws(Failure) -> S3XMLElement {
        var reader = S3XMLReader(bytes)
        try reader.skipProlog()
        guard reader.peek == UInt8(ascii: "<") else { throw reader.failure("expected the root element") }
        let root = try reader.element(depth: 0)
        try reader.skipMisc()
        guard reader.index == bytes.count else { throw reader.failure("text after the root element") }
        return root
    }

    private var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

    private func failure(_ reason: String) -> Failure {
        Failure(description: "\(reason) at byte \(index)")
    }

    private func starts(with text: String) -> Bool {
        let utf8 = Array(text.utf8)
        return index + utf8.count <= bytes.count && bytes[index..<index + utf8.count].elementsEqual(utf8)
    }

    /// Moves past `terminator`, failing when the document ends first.
    private mutating func skip(past terminator: String) throws(Failure) {
        let utf8 = Array(terminator.utf8)
        while index + utf8.count <= bytes.count {
            if bytes[index..<index + utf8.count].elementsEqual(utf8) {
                index += utf8.count
                return
            }
            index += 1
        }
        index = bytes.count
        throw failure("unterminated construct (no '\(terminator)')")
    }

    private mutating func skipSpace() {
        while let byte = peek, byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D { index += 1 }
    }

    /// A byte-order mark, the declaration, comments, processing instructions, a doctype.
    private mutating func skipProlog() throws(Failure) {
        if starts(with: "\u{FEFF}") { index += 3 }
        try skipMisc()
    }

    private mutating func skipMisc() throws(Failure) {
        while true {
            skipSpace()
            if starts(with: "<?") {
                try skip(past: "?>")
            } else if starts(with: "<!--") {
                try skip(past: "-->")
            } else if starts(with: "<!DOCTYPE") {
                try skip(past: ">")
            } else {
                return
            }
        }
    }

    private static func isNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
             UInt8(ascii: "."), UInt8(ascii: ":"), 0x80...0xFF:
            return true
        default:
            return false
        }
    }

    private mutating func name() throws(Failure) -> String {
        let start = index
        while let byte = peek, Self.isNameByte(byte) { index += 1 }
        guard index > start else { throw failure("expected a name") }
        let qualified = String(decoding: bytes[start..<index], as: UTF8.self)
        return qualified.split(separator: ":").last.map(String.init) ?? qualified
    }

    /// An element starting at `<`: attributes are read past (S3's carry only namespaces).
    private mutating func element(depth: Int) throws(Failure) -> S3XMLElement {
        guard depth < Self.maximumDepth else { throw failure("elements nested more than \(Self.maximumDepth) deep") }
        index += 1  // <
        let name = try self.name()
        try skipAttributes()
        if starts(with: "/>") {
            index += 2
            return S3XMLElement(name: name, text: "", children: [])
        }
        guard peek == UInt8(ascii: ">") else { throw failure("expected '>' after <\(name)") }
        index += 1
        var text: [UInt8] = []
        var children: [S3XMLElement] = []
        while true {
            guard let byte = peek else { throw failure("the document ends inside <\(name)>") }
            if byte == UInt8(ascii: "<") {
                if starts(with: "</") {
                    index += 2
                    let closing = try self.name()
                    guard closing == name else { throw failure("</\(closing)> closes <\(name)>") }
                    skipSpace()
                    guard peek == UInt8(ascii: ">") else { throw failure("expected '>' in </\(name)") }
                    index += 1
                    return S3XMLElement(name: name, text: String(decoding: text, as: UTF8.self), children: children)
                } else if starts(with: "<!--") {
                    try skip(past: "-->")
                } else if starts(with: "<![CDATA[") {
                    index += 9
                    let start = index
                    try skip(past: "]]>")
                    text += bytes[start..<index - 3]
                } else if starts(with: "<?") {
                    try skip(past: "?>")
                } else {
                    children.append(try element(depth: depth + 1))
                }
            } else if byte == UInt8(ascii: "&") {
                text += try entity()
            } else {
                text.append(byte)
                index += 1
            }
        }
    }

    private mutating func skipAttributes() throws(Failure) {
        while true {
            skipSpace()
            guard let byte = peek else { throw failure("the document ends inside a tag") }
            if byte == UInt8(ascii: ">") || starts(with: "/>") { return }
            _ = try name()
            skipSpace()
            guard peek == UInt8(ascii: "=") else { throw failure("expected '=' in an attribute") }
            index += 1
            skipSpace()
            guard let quote = peek, quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
                throw failure("expected a quoted attribute value")
            }
            index += 1
            while let inner = peek, inner != quote { index += 1 }
            guard peek == quote else { throw failure("unterminated attribute value") }
            index += 1
        }
    }

    /// `&amp;` and friends, `&#65;`, `&#x41;`: the UTF-8 bytes they stand for.
    private mutating func entity() throws(Failure) -> [UInt8] {
        let start = index
        index += 1
        while let byte = peek, byte != UInt8(ascii: ";"), index - start < 12 { index += 1 }
        guard peek == UInt8(ascii: ";") else { throw failure("an unterminated entity") }
        let body = String(decoding: bytes[(start + 1)..<index], as: UTF8.self)
        index += 1
        switch body {
        case "amp": return [UInt8(ascii: "&")]
        case "lt": return [UInt8(ascii: "<")]
        case "gt": return [UInt8(ascii: ">")]
        case "quot": return [UInt8(ascii: "\"")]
        case "apos": return [UInt8(ascii: "'")]
        default:
            let value: UInt32?
            if body.hasPrefix("#x") || body.hasPrefix("#X") {
                value = UInt32(body.dropFirst(2), radix: 16)
            } else if body.hasPrefix("#") {
                value = UInt32(body.dropFirst(), radix: 10)
            } else {
                value = nil
            }
            guard let value, let scalar = Unicode.Scalar(value) else { throw failure("an unknown entity '&\(body);'") }
            return Array(String(Character(scalar)).utf8)
        }
    }
}
