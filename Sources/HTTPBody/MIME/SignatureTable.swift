/// The byte patterns of the WHATWG MIME Sniffing standard (sections 6.1-6.3,
/// images, audio and video, fonts, archives) plus PDF, PostScript, the
/// common compressed formats, and the binary files most common in a system's
/// shared data (gettext catalogues, Python bytecode), with the text-or-binary
/// rule (section 7.2).
///
/// Type names follow libmagic where it differs from the standard
/// (`application/gzip` rather than `application/x-gzip`), so the two
/// sniffers agree.
enum SignatureTable {
    /// A pattern: bytes to match at the start, `nil` for "any byte".
    private struct Signature {
        let pattern: [UInt8?]
        let mediaType: MediaType

        init(_ pattern: [UInt8?], _ type: String, _ subtype: String) {
            self.pattern = pattern
            self.mediaType = MediaType(type: type, subtype: subtype)
        }

        init(_ text: String, _ type: String, _ subtype: String) {
            self.init(text.utf8.map { $0 }, type, subtype)
        }

        func matches(_ bytes: [UInt8]) -> Bool {
            guard bytes.count >= pattern.count else { return false }
            for (index, expected) in pattern.enumerated() {
                if let expected, bytes[index] != expected { return false }
            }
            return true
        }
    }

    private static let any: UInt8? = nil

    private static let signatures: [Signature] = [
        // Images (WHATWG 6.1)
        Signature([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "image", "png"),
        Signature([0xFF, 0xD8, 0xFF], "image", "jpeg"),
        Signature("GIF87a", "image", "gif"),
        Signature("GIF89a", "image", "gif"),
        Signature([0x52, 0x49, 0x46, 0x46, any, any, any, any, 0x57, 0x45, 0x42, 0x50, 0x56, 0x50], "image", "webp"),
        Signature([0x00, 0x00, 0x01, 0x00], "image", "vnd.microsoft.icon"),
        Signature([0x00, 0x00, 0x02, 0x00], "image", "vnd.microsoft.icon"),
        // Audio and video (WHATWG 6.2)
        Signature([0x46, 0x4F, 0x52, 0x4D, any, any, any, any, 0x41, 0x49, 0x46, 0x46], "audio", "x-aiff"),
        Signature("ID3", "audio", "mpeg"),
        Signature([0x4F, 0x67, 0x67, 0x53, 0x00], "audio", "ogg"),
        Signature([0x4D, 0x54, 0x68, 0x64, 0x00, 0x00, 0x00, 0x06], "audio", "midi"),
        Signature([0x52, 0x49, 0x46, 0x46, any, any, any, any, 0x41, 0x56, 0x49, 0x20], "video", "x-msvideo"),
        Signature([0x52, 0x49, 0x46, 0x46, any, any, any, any, 0x57, 0x41, 0x56, 0x45], "audio", "x-wav"),
        Signature("fLaC", "audio", "flac"),
        // Fonts (WHATWG 6.3; sfnt is checked whole, below)
        Signature("ttcf", "font", "collection"),
        Signature("wOFF", "font", "woff"),
        Signature("wOF2", "font", "woff2"),
        // Archives (WHATWG 6.4) and other compressed formats
        Signature([0x1F, 0x8B, 0x08], "application", "gzip"),
        Signature([0x50, 0x4B, 0x03, 0x04], "application", "zip"),
        Signature([0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x00], "application", "x-rar"),
        Signature([0x52, 0x61, 0x72, 0x21, 0x1A, 0x07, 0x01, 0x00], "application", "x-rar"),
        Signature("BZh", "application", "x-bzip2"),
        Signature([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00], "application", "x-xz"),
        Signature([0x37, 0x7A, 0xBC, 0xAF, 0x27, 0x1C], "application", "x-7z-compressed"),
        Signature([0x28, 0xB5, 0x2F, 0xFD], "application", "zstd"),
        // Documents (WHATWG 7.1's unknown-type patterns)
        Signature("%PDF-", "application", "pdf"),
        Signature("%!PS-Adobe-", "application", "postscript"),
        // gettext message catalogues (`.mo`), in either byte order: hundreds
        // in any /usr/share/locale, each otherwise a libmagic call.
        Signature([0xDE, 0x12, 0x04, 0x95], "application", "x-gettext-translation"),
        Signature([0x95, 0x04, 0x12, 0xDE], "application", "x-gettext-translation"),
    ]

    /// The type whose pattern the bytes start with, or `nil`.
    static func match(_ bytes: [UInt8]) -> MediaType? {
        if let signature = signatures.first(where: { $0.matches(bytes) }) { return signature.mediaType }
        if matchesBMP(bytes) { return MediaType(type: "image", subtype: "bmp") }
        if matchesSFNT(bytes) { return MediaType(type: "font", subtype: "sfnt") }
        if matchesMP4(bytes) { return MediaType(type: "video", subtype: "mp4") }
        if matchesWebM(bytes) { return MediaType(type: "video", subtype: "webm") }
        if matchesEmbeddedOpenType(bytes) { return MediaType(type: "application", subtype: "vnd.ms-fontobject") }
        if matchesPythonBytecode(bytes) { return MediaType(type: "application", subtype: "x-bytecode.python") }
        return nil
    }

    /// A BMP image: WHATWG's two bytes `BM`, which one file of random bytes
    /// in 65,536 starts with, so also the header after them: the reserved
    /// fields zero and the DIB header's size one that a BMP version defines
    /// (12 for OS/2 1.x up to 124 for BITMAPV5HEADER).
    private static func matchesBMP(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 18, bytes[0] == 0x42, bytes[1] == 0x4D, bytes[6..<10].allSatisfy({ $0 == 0 }) else { return false }
        let headerSize = bytes[14..<18].reversed().reduce(0) { $0 << 8 | Int($1) }
        return [12, 16, 40, 52, 56, 64, 108, 124].contains(headerSize)
    }

    /// A TrueType or OpenType font: WHATWG's four bytes (`00 01 00 00` or
    /// `OTTO`) and the table directory after them, whose search fields
    /// follow from the table count (OpenType, "Table Directory"). The four
    /// bytes alone also open other files, a GTK `icon-theme.cache` (version
    /// 1.0) among them.
    private static func matchesSFNT(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12, bytes.starts(with: [0x00, 0x01, 0x00, 0x00]) || bytes.starts(with: Array("OTTO".utf8)) else { return false }
        let field = { (offset: Int) in Int(bytes[offset]) << 8 | Int(bytes[offset + 1]) }
        let tableCount = field(4)
        guard tableCount > 0 else { return false }
        var power = 1
        var exponent = 0
        while power * 2 <= tableCount {
            power *= 2
            exponent += 1
        }
        return field(6) == power * 16 && field(8) == exponent && field(10) == tableCount * 16 - power * 16
    }

    /// WHATWG 6.2.1: an `ftyp` box whose major or a compatible brand starts with `mp4`.
    private static func matchesMP4(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12 else { return false }
        let boxSize = bytes[0..<4].reduce(0) { $0 << 8 | Int($1) }
        guard boxSize >= 12, boxSize % 4 == 0, bytes.count >= boxSize,
            bytes[4..<8].elementsEqual("ftyp".utf8)
        else { return false }
        let mp4 = Array("mp4".utf8)
        if bytes[8..<11].elementsEqual(mp4) { return true }
        var offset = 16
        while offset + 3 <= boxSize {
            if bytes[offset..<offset + 3].elementsEqual(mp4) { return true }
            offset += 4
        }
        return false
    }

    /// WHATWG 6.2.2: an EBML header whose DocType is `webm`.
    private static func matchesWebM(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 4, bytes[0..<4].elementsEqual([0x1A, 0x45, 0xDF, 0xA3]) else { return false }
        let window = bytes.prefix(38)
        let docType: [UInt8] = [0x42, 0x82]
        var index = 4
        while index + 2 <= window.count {
            if window[index..<index + 2].elementsEqual(docType) {
                return window.count >= index + 7 && window[(index + 3)..<(index + 7)].elementsEqual("webm".utf8)
            }
            index += 1
        }
        return false
    }

    /// WHATWG 6.3: 34 bytes of anything, then `LP`.
    private static func matchesEmbeddedOpenType(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 36 && bytes[34] == 0x4C && bytes[35] == 0x50
    }

    /// A CPython 3 `.pyc` file: its header starts with the version's magic
    /// number (3000-3999 little-endian, one per bytecode change since 3.0)
    /// and `\r\n`, the pattern libmagic's python rules list one by one.
    private static func matchesPythonBytecode(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 12, bytes[2] == 0x0D, bytes[3] == 0x0A else { return false }
        let magic = Int(bytes[0]) | Int(bytes[1]) << 8
        return (3000..<4000).contains(magic)
    }

    /// WHATWG 7.2's text-or-binary rule: text when it starts with a byte order
    /// mark or holds none of the bytes that never occur in text.
    static func looksLikeText(_ bytes: [UInt8]) -> Bool {
        if bytes.starts(with: [0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            return true
        }
        return !bytes.contains { byte in
            byte <= 0x08 || byte == 0x0B || (0x0E...0x1A).contains(byte) || (0x1C...0x1F).contains(byte)
        }
    }
}
