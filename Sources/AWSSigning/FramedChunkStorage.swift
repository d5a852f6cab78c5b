import HTTPBody

/// One unsigned `aws-chunked` chunk, `hex-size\r\nDATA\r\n`, in one `Storage`:
/// a source asked for its bytes `as: FramedChunkStorage<Storage>.self` writes
/// them straight between the framing, so a chunk is handed on without a copy.
///
/// The size written first is the capacity the source asks for (what it means
/// to read); when it reads fewer bytes, the framing is written again for
/// them and the data moved, so the storage is always one well-formed chunk.
struct FramedChunkStorage<Storage: ChunkStorage>: ChunkStorage {
    /// The framed chunk.
    private(set) var framed: Storage
    /// Where the data begins in ``framed``, and how many bytes it has.
    private(set) var dataOffset = 0
    private(set) var dataCount = 0

    /// The size line and the CRLF after the data, around `count` bytes.
    static func framingLength(ofData count: Int) -> Int {
        String(count, radix: 16).utf8.count + 4
    }

    init(capacity: Int, initializingWith initializer: (UnsafeMutableRawBufferPointer) throws -> Int) rethrows {
        var offset = 0
        var count = 0
        framed = try Storage(capacity: capacity + Self.framingLength(ofData: capacity)) { buffer in
            let expectedHeader = Self.sizeLine(capacity)
            let start = expectedHeader.count
            let read = try initializer(UnsafeMutableRawBufferPointer(rebasing: buffer[start..<start + capacity]))
            let header = read == capacity ? expectedHeader : Self.sizeLine(read)
            if header.count != start, read > 0 {
                // Fewer bytes than asked for, in a shorter size line: the data moves up.
                UnsafeMutableRawBufferPointer(rebasing: buffer[header.count..<header.count + read])
                    .copyMemory(from: UnsafeRawBufferPointer(rebasing: buffer[start..<start + read]))
            }
            header.withUnsafeBytes { UnsafeMutableRawBufferPointer(rebasing: buffer[0..<header.count]).copyMemory(from: $0) }
            buffer[header.count + read] = 13
            buffer[header.count + read + 1] = 10
            offset = header.count
            count = read
            return header.count + read + 2
        }
        dataOffset = offset
        dataCount = count
    }

    /// The data without its framing, as the sources that wrap the one
    /// writing it count and see their bytes (a slice counts what it read).
    func withUnsafeBytes<Result>(_ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        try framed.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[dataOffset..<dataOffset + dataCount])) }
    }

    /// `count` in hex and CRLF.
    private static func sizeLine(_ count: Int) -> [UInt8] {
        Array("\(String(count, radix: 16))\r\n".utf8)
    }
}
