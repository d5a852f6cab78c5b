// Beside Deflater.swift, the other Swift file in HTTPBody that imports zlib
// (house style, practice 8): inflating what a server compressed.
import CZlib

/// One zlib inflate stream decoding one content coding of a response body
/// as its bytes arrive, in output pieces of bounded size.
///
/// Not `Sendable`: a `z_stream` must not be used by two threads at once, so
/// an inflater stays with the iterator that made it.
final class Inflater {
    /// The data formats a content coding names.
    enum Format {
        /// `gzip` (RFC 1952), or zlib data sent under that name: zlib tells
        /// them apart by their header, as curl lets it.
        case gzip
        /// `deflate`: zlib-wrapped (RFC 1950, what RFC 9110 means) or raw
        /// (RFC 1951, what some servers send), told apart by the first two
        /// bytes, as curl does.
        case deflate
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private let format: Format
    private let coding: String
    /// Whether the stream is set up; a `deflate` stream waits for the two
    /// bytes that say which of its formats it is.
    private var isStarted = false
    /// Compressed bytes given and not yet consumed, from `consumed` on.
    private var input: [UInt8] = []
    private var consumed = 0
    /// Whether the compressed data has ended (`Z_STREAM_END`); bytes after
    /// the end are ignored, as curl ignores them.
    private(set) var isFinished = false
    /// Whether any compressed byte was given: an empty body (a `HEAD`
    /// answer, a 204) decodes to nothing and is not truncated.
    private var receivedAny = false

    init(_ format: Format, coding: String) {
        self.format = format
        self.coding = coding
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
    }

    deinit {
        if isStarted { inflateEnd(stream) }
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Whether every byte given has been consumed, so more are needed for
    /// more output.
    var needsInput: Bool { isFinished || !isStarted || consumed == input.count }

    /// Gives the next compressed bytes; call only when ``needsInput``.
    func give(_ bytes: [UInt8]) {
        if isFinished { return }
        if !bytes.isEmpty { receivedAny = true }
        input = Array(input[consumed...]) + bytes
        consumed = 0
    }

    /// Up to `limit` decoded bytes from the bytes given so far: empty when
    /// more input is needed (``needsInput``) or the data has ended.
    func decode(limit: Int) throws(ContentDecodingError) -> [UInt8] {
        if isFinished { return [] }
        if !isStarted {
            guard let windowBits = windowBits() else { return [] }
            let status = czlib_inflateInit2(stream, windowBits)
            guard status == Z_OK else { throw .corrupt(coding: coding, reason: "zlib could not start an inflate stream (status \(status))") }
            isStarted = true
        }
        if consumed == input.count { return [] }
        var output = [UInt8](repeating: 0, count: limit)
        var status: Int32 = Z_OK
        let consumedBefore = consumed
        let produced = input.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { output in
                stream.pointee.next_in = input.baseAddress.map { UnsafeMutablePointer(mutating: $0 + consumed) }
                stream.pointee.avail_in = uInt(input.count - consumed)
                stream.pointee.next_out = output.baseAddress
                stream.pointee.avail_out = uInt(output.count)
                defer {
                    stream.pointee.next_in = nil
                    stream.pointee.next_out = nil
                }
                status = inflate(stream, Z_NO_FLUSH)
                consumed = input.count - Int(stream.pointee.avail_in)
                return output.count - Int(stream.pointee.avail_out)
            }
        }
        switch status {
        case Z_STREAM_END:
            isFinished = true
        case Z_OK, Z_BUF_ERROR:
            // More output to come, or more input needed; zlib moving
            // neither way with both input and room would loop forever.
            guard produced > 0 || consumed > consumedBefore else {
                throw .corrupt(coding: coding, reason: "zlib made no progress (status \(status))")
            }
        case Z_NEED_DICT:
            throw .corrupt(coding: coding, reason: "the data need a preset dictionary, which HTTP never supplies")
        default:
            let message = stream.pointee.msg.map { String(cString: $0) } ?? "status \(status)"
            throw .corrupt(coding: coding, reason: message)
        }
        output.removeSubrange(produced...)
        return output
    }

    /// Checks that the compressed data ended, once the body has: a body cut
    /// short is an error, not a shorter file.
    func finish() throws(ContentDecodingError) {
        guard receivedAny, !isFinished else { return }
        throw .truncated(coding: coding)
    }

    /// The window bits for `inflateInit2`, or `nil` while a `deflate`
    /// stream has fewer than the two bytes that decide its format.
    private func windowBits() -> Int32? {
        switch format {
        case .gzip:
            return MAX_WBITS + 32  // automatic gzip or zlib header detection
        case .deflate:
            guard input.count - consumed >= 2 else { return nil }
            // A zlib header: compression method 8 and a check making the
            // first two bytes, big-endian, a multiple of 31 (RFC 1950).
            let first = input[consumed], second = input[consumed + 1]
            let isZlib = first & 0x0F == 8 && (UInt16(first) << 8 | UInt16(second)) % 31 == 0
            return isZlib ? MAX_WBITS : -MAX_WBITS
        }
    }
}
