import Foundation

/// Command-line arguments as the kernel passed them: bytes, which need not
/// be UTF-8 (a file named `\xff\xfe.txt`).
///
/// `CommandLine.arguments` replaces such bytes with U+FFFD, and the file can
/// then be neither opened nor named. Here each byte that is not part of valid
/// UTF-8 becomes a private-use scalar, U+10FF00 plus the byte, so items parse
/// as text and the bytes come back exactly where a path or filename is used.
package enum RawArgument {
    /// The first scalar of the range that stands for single bytes 0x80-0xFF.
    private static let escapeBase: UInt32 = 0x10FF00

    /// The arguments after the program name, with bytes that are not UTF-8 escaped.
    package static func commandLine() -> [String] {
        // argc can be 0 when a program is started with an empty argv.
        (1..<max(1, Int(CommandLine.argc))).map { index in
            guard let argument = CommandLine.unsafeArgv[index] else { return "" }
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(argument).assumingMemoryBound(to: UInt8.self), count: strlen(argument))
            return decode(bytes)
        }
    }

    /// The text of `bytes`: UTF-8 as it is, other bytes escaped.
    package static func decode(_ bytes: some Collection<UInt8>) -> String {
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var scalars = String.UnicodeScalarView()
        let bytes = Array(bytes)
        var index = 0
        while index < bytes.count {
            let length = sequenceLength(startingWith: bytes[index])
            if length > 0, index + length <= bytes.count,
               let text = String(validating: bytes[index..<index + length], as: UTF8.self),
               let scalar = text.unicodeScalars.first {
                scalars.append(scalar)
                index += length
            } else {
                scalars.append(Unicode.Scalar(escapeBase + UInt32(bytes[index])) ?? "\u{FFFD}")
                index += 1
            }
        }
        return String(scalars)
    }

    /// The bytes `text` stands for: escaped bytes restored, the rest UTF-8.
    package static func bytes(of text: String) -> [UInt8] {
        // ASCII holds no escape (every escape scalar is past U+007F): its
        // bytes are its UTF-8, copied at once (a path in each file item).
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return Array(text.utf8) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if let byte = escapedByte(scalar) {
                bytes.append(byte)
            } else {
                bytes.append(contentsOf: scalar.utf8)
            }
        }
        return bytes
    }

    /// Whether `text` holds bytes that are not UTF-8 (escaped scalars):
    /// such text can be sent exactly only where bytes go (a URL escape, a
    /// multipart part, a header value), never in JSON.
    package static func hasEscapedBytes(_ text: String) -> Bool {
        text.unicodeScalars.contains { escapedByte($0) != nil }
    }

    /// The byte an escape scalar stands for, if it is one.
    package static func escapedByte(_ scalar: Unicode.Scalar) -> UInt8? {
        (escapeBase + 0x80...escapeBase + 0xFF).contains(scalar.value) ? UInt8(scalar.value - escapeBase) : nil
    }

    /// How many bytes a UTF-8 sequence with this first byte has; 0 for a byte
    /// that cannot start one.
    private static func sequenceLength(startingWith byte: UInt8) -> Int {
        switch byte {
        case 0x00...0x7F: 1
        case 0xC2...0xDF: 2
        case 0xE0...0xEF: 3
        case 0xF0...0xF4: 4
        default: 0
        }
    }
}
