// The one Swift file in HTTPBody that imports zlib (house style, practice 8):
// deflating and storing blocks, and the gzip CRC-32.
import CZlib

/// One zlib raw-deflate stream at one level, reset for each block it compresses.
///
/// `@unchecked Sendable` because a `z_stream` must not be used by two threads
/// at once, which the compiler cannot check: ``GzipChunkSource`` lends each of
/// its deflaters to one child task at a time and takes it back only when that
/// task has returned, so every use of the stream is ordered by the task's
/// start and end.
final class Deflater: @unchecked Sendable {
    /// A block's deflate data and what the gzip trailer needs of its input.
    struct Output: Sendable {
        /// Raw deflate data (RFC 1951) ending on a byte boundary: after a
        /// non-final block, another block's data can follow directly.
        var bytes: [UInt8]
        /// The CRC-32 of the block's input.
        var checksum: UInt32
        /// The block's input length.
        var inputLength: Int
    }

    private let stream: UnsafeMutablePointer<z_stream>
    private var isFresh = true

    init(level: Int32) throws(GzipError) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // Negative window bits: a raw deflate stream; the gzip framing is ours,
        // so the header is the same on every platform.
        let status = czlib_deflateInit2(stream, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY)
        guard status == Z_OK else {
            stream.deinitialize(count: 1)
            stream.deallocate()
            throw .initializationFailed(status: status)
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
    }

    /// Deflates a whole block at this stream's level, primed with its
    /// dictionary. A non-final block ends with a sync flush (an empty stored
    /// block, byte-aligned and not final); the last one ends the stream.
    func compress(_ block: GzipBlockReader.Block) throws(GzipError) -> Output {
        if !isFresh { deflateReset(stream) }
        isFresh = false
        if !block.dictionary.isEmpty {
            // Allowed for raw deflate before the first deflate call (zlib manual, deflateSetDictionary).
            let status = block.dictionary.withUnsafeBufferPointer { deflateSetDictionary(stream, $0.baseAddress, uInt($0.count)) }
            guard status == Z_OK else { throw failure(status) }
        }
        // deflateBound covers Z_FINISH; a sync flush adds an empty stored block,
        // and the loop grows the buffer should zlib ever need more.
        var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, uLong(block.input.count))) + 16)
        var produced = 0
        let flush = block.isLast ? Z_FINISH : Z_SYNC_FLUSH
        let status = block.input.withUnsafeBufferPointer { input in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            defer { stream.pointee.next_in = nil }
            while true {
                if produced == output.count { output += repeatElement(0, count: 64 * 1024) }
                let status = output.withUnsafeMutableBufferPointer { buffer in
                    stream.pointee.next_out = buffer.baseAddress.map { $0 + produced }
                    stream.pointee.avail_out = uInt(buffer.count - produced)
                    defer { stream.pointee.next_out = nil }
                    let status = deflate(stream, flush)
                    produced = buffer.count - Int(stream.pointee.avail_out)
                    return status
                }
                switch status {
                case Z_STREAM_END: return Z_OK
                case Z_OK, Z_BUF_ERROR:
                    // A sync flush is complete once zlib leaves output space unused
                    // (zlib manual, deflate); a finish that does is stuck.
                    if produced < output.count { return block.isLast ? Z_BUF_ERROR : Z_OK }
                default: return status
                }
            }
        }
        guard status == Z_OK else { throw failure(status) }
        output.removeSubrange(produced...)
        return Output(bytes: output, checksum: Self.checksum(of: block.input), inputLength: block.input.count)
    }

    /// Copies a block into stored deflate blocks (RFC 1951, section 3.2.4) of
    /// up to 65,535 bytes each; no stream is needed for that. Blocks always
    /// start on a byte boundary here, so each header is a whole byte.
    static func store(_ block: GzipBlockReader.Block) -> Output {
        let input = block.input
        let largestStored = 65_535
        var output: [UInt8] = []
        output.reserveCapacity(input.count + 5 * (input.count / largestStored + 1))
        var offset = 0
        repeat {
            let count = min(largestStored, input.count - offset)
            let isFinal = block.isLast && offset + count == input.count
            let length = UInt16(count)
            output += [isFinal ? 1 : 0, UInt8(truncatingIfNeeded: length), UInt8(length >> 8), UInt8(truncatingIfNeeded: ~length), UInt8(~length >> 8)]
            output += input[offset..<offset + count]
            offset += count
        } while offset < input.count
        return Output(bytes: output, checksum: checksum(of: input), inputLength: input.count)
    }

    /// The CRC-32 of input made of `first`'s bytes then `second`'s, from their
    /// CRCs alone (zlib's `crc32_combine`).
    static func combine(_ first: UInt32, _ second: UInt32, secondLength: Int) -> UInt32 {
        UInt32(truncatingIfNeeded: crc32_combine(uLong(first), uLong(second), .init(secondLength)))
    }

    private static func checksum(of bytes: [UInt8]) -> UInt32 {
        UInt32(truncatingIfNeeded: bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, uInt($0.count)) })
    }

    private func failure(_ status: Int32) -> GzipError {
        .deflateFailed(status: status, message: stream.pointee.msg.map { String(cString: $0) })
    }
}
