/// What a terminal is shown of a body: its text as it is, and, from the
/// first byte that is not text (a NUL, or bytes that are not UTF-8), a
/// one-line note of how much was held back instead, as HTTPie shows one.
/// Raw bytes could drive the terminal; `-o` and pipes get every byte.
struct TerminalBinaryFilter {
    /// How many bytes were held back.
    private(set) var heldBack: Int64 = 0
    /// A multi-byte character cut by the chunk's end, kept for the next.
    private var pending: [UInt8] = []

    /// The part of `chunk` to write: all of it while the body is text; the
    /// text before the first binary byte's line once it is found; nothing after.
    mutating func pass(_ chunk: [UInt8]) -> [UInt8] {
        guard heldBack == 0 else {
            heldBack += Int64(chunk.count)
            return []
        }
        let bytes = pending + chunk
        pending = []
        guard let binary = Self.firstBinaryOffset(in: bytes) else { return bytes }
        if binary == -1 {
            // Only an unfinished character at the end: kept for the next chunk.
            let cut = Self.unfinishedTail(of: bytes)
            pending = Array(bytes.suffix(cut))
            return Array(bytes.dropLast(cut))
        }
        let shown = bytes[..<binary].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        heldBack = Int64(bytes.count - shown)
        return Array(bytes[..<shown])
    }

    /// The note for what was held back, or `nil` when nothing was.
    func note(contentType: String?) -> String? {
        guard heldBack > 0 || !pending.isEmpty else { return nil }
        let count = heldBack + Int64(pending.count)
        let type = contentType.map { ", \($0.split(separator: ";").first.map(String.init) ?? $0)" } ?? ""
        return "[binary data not shown on a terminal: \(ProgressBar.formatBytes(count))\(type); -o FILE or a pipe gets it]\n"
    }

    /// Where the first byte that is not text is: its offset, `-1` when the
    /// only fault is a character cut by the end, `nil` when all is text.
    private static func firstBinaryOffset(in bytes: [UInt8]) -> Int? {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == 0 { return index }
            if byte < 0x80 {
                index += 1
                continue
            }
            let length = byte >= 0xF0 && byte <= 0xF4 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC2 && byte < 0xE0 ? 2 : 0
            guard length > 0 else { return index }
            if index + length > bytes.count {
                let rest = bytes[(index + 1)...]
                return rest.allSatisfy({ $0 & 0xC0 == 0x80 }) ? -1 : index
            }
            guard bytes[(index + 1)..<(index + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) else { return index }
            index += length
        }
        return nil
    }

    /// How many bytes at the end start a character that is not finished.
    private static func unfinishedTail(of bytes: [UInt8]) -> Int {
        var count = 0
        for byte in bytes.reversed().prefix(3) {
            count += 1
            if byte & 0xC0 != 0x80 { return count }
        }
        return 0
    }
}
