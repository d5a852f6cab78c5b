/// Reads typed values off the front of a fuzzer's input, so one byte string
/// describes a whole structured case. Reading past the end yields zeros and
/// empty strings, never a trap.
public struct FuzzInput {
    private let bytes: [UInt8]
    private var position = 0

    /// Wraps the bytes libFuzzer hands to `LLVMFuzzerTestOneInput`.
    public init(_ start: UnsafeRawPointer?, _ count: Int) {
        bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    }

    /// Whether every byte has been read.
    public var isAtEnd: Bool { position >= bytes.count }

    /// The next byte, or 0 past the end.
    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A number in `0..<bound` from the next byte.
    public mutating func choice(_ bound: Int) -> Int {
        bound <= 1 ? 0 : Int(byte()) % bound
    }

    /// Up to `maximum` raw bytes: a length byte, then that many bytes.
    public mutating func bytes(maximum: Int = 64) -> [UInt8] {
        let count = min(Int(byte()), maximum, bytes.count - min(position, bytes.count))
        defer { position += count }
        return Array(bytes[position..<position + count])
    }

    /// A string from up to `maximum` bytes, invalid UTF-8 repaired.
    public mutating func string(maximum: Int = 64) -> String {
        String(decoding: bytes(maximum: maximum), as: UTF8.self)
    }

    /// The rest of the input as bytes.
    public mutating func restBytes() -> [UInt8] {
        defer { position = bytes.count }
        return Array(bytes[min(position, bytes.count)...])
    }

    /// The rest of the input as a string.
    public mutating func rest() -> String {
        defer { position = bytes.count }
        return String(decoding: bytes[min(position, bytes.count)...], as: UTF8.self)
    }
}
