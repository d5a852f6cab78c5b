// One of the two Swift files in HTTPBody that import zlib, with Inflater.swift (house style, practice 8):
// deflating blocks where libdeflate is not linked, storing blocks, and the gzip CRC-32.
import CCRC32
import CZlib

/// One zlib raw-deflate stream at one level, reset for each block it
/// compresses: the ``BlockCompressor`` where libdeflate is not linked.
///
/// Not `Sendable`: a `z_stream` must not be used by two threads at once, so
/// each deflater stays with the thread or task that made it (one per
/// ``DeflateWorkers`` thread, and one on the reading task when blocks are
/// compressed there).
final class Deflater {
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

    /// zlib takes a preset dictionary: each block is primed with the 32 KiB before it.
    static let primesBlocks = true

    /// The library and the version of the header it was built against.
    static let engine = "zlib \(ZLIB_VERSION)"

    private let stream: UnsafeMutablePointer<z_stream>
    private var isFresh = true
    /// Where zlib writes a block's data, reused from block to block so no
    /// block pays for zeroing a buffer of deflateBound's size; each output
    /// is then copied out at its exact size.
    private var scratch: [UInt8] = []

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
    /// dictionary. The last block ends the stream; any other ends on a byte
    /// boundary, as pigz ends its blocks: the deflate block is closed
    /// (`Z_BLOCK`), then padded with empty fixed-Huffman blocks of 10 bits
    /// each when that reaches a byte boundary, and with a sync flush's empty
    /// stored block (4-5 bytes) only when it cannot (an odd bit count). So
    /// the data are pigz's for the same input, and a few bytes per block
    /// smaller than with a sync flush on every block.
    func compress(_ block: GzipBlockReader.Block) throws(GzipError) -> Output {
        if !isFresh { deflateReset(stream) }
        isFresh = false
        if !block.dictionary.isEmpty {
            // Allowed for raw deflate before the first deflate call (zlib manual, deflateSetDictionary).
            let status = block.dictionary.withUnsafeBufferPointer { deflateSetDictionary(stream, $0.baseAddress, uInt($0.count)) }
            guard status == Z_OK else { throw failure(status) }
        }
        // deflateBound covers Z_FINISH; the padding adds a few bytes, and
        // the loop grows the buffer should zlib ever need more.
        let bound = Int(deflateBound(stream, uLong(block.input.count))) + 16
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        var produced = 0
        try block.input.withUnsafeBufferPointer { input throws(GzipError) in
            stream.pointee.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
            stream.pointee.avail_in = uInt(input.count)
            defer { stream.pointee.next_in = nil }
            try run(block.isLast ? Z_FINISH : Z_BLOCK, producing: &produced)
        }
        if !block.isLast {
            var bits: Int32 = 0
            deflatePending(stream, nil, &bits)
            if bits & 1 != 0 {
                try run(Z_SYNC_FLUSH, producing: &produced)
            } else if bits & 7 != 0 {
                repeat {
                    // BFINAL 0, BTYPE 01 (fixed Huffman), then the 7-bit end-of-block code 0.
                    let status = deflatePrime(stream, 10, 2)
                    guard status == Z_OK else { throw failure(status) }
                    deflatePending(stream, nil, &bits)
                } while bits & 7 != 0
                try run(Z_BLOCK, producing: &produced)  // writes out the padding's whole bytes
            }
        }
        return Output(bytes: Array(scratch[..<produced]), checksum: Self.checksum(of: block.input), inputLength: block.input.count)
    }

    /// Calls `deflate` with `flush` until it has consumed its input and
    /// written everything `flush` asks for into `scratch` after `produced`.
    private func run(_ flush: Int32, producing produced: inout Int) throws(GzipError) {
        while true {
            if produced == scratch.count { scratch += repeatElement(0, count: 64 * 1024) }
            let status = scratch.withUnsafeMutableBufferPointer { buffer in
                stream.pointee.next_out = buffer.baseAddress.map { $0 + produced }
                stream.pointee.avail_out = uInt(buffer.count - produced)
                defer { stream.pointee.next_out = nil }
                let status = deflate(stream, flush)
                produced = buffer.count - Int(stream.pointee.avail_out)
                return status
            }
            switch status {
            case Z_STREAM_END:
                return
            case Z_OK, Z_BUF_ERROR:
                // A flush is complete once zlib leaves output space unused
                // (zlib manual, deflate); a finish that does is stuck.
                guard produced < scratch.count else { continue }
                if flush == Z_FINISH { throw failure(Z_BUF_ERROR) }
                return
            default:
                throw failure(status)
            }
        }
    }

    /// A block's output: stored when its level is 0, otherwise deflated
    /// with `deflater`, which is made for the first block that needs one
    /// (every deflated block of a body has the body's level).
    static func output(of block: GzipBlockReader.Block, reusing deflater: inout BlockCompressor?) throws(GzipError) -> Output {
        guard block.level > 0 else { return store(block) }
        if let deflater { return try deflater.compress(block) }
        let made = try BlockCompressor(level: block.level)
        deflater = made
        return try made.compress(block)
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

    static func checksum(of bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { crc32(continuing: 0, over: $0) }
    }

    /// zlib's `crc32` over `bytes`, continuing from `crc` (0 to begin): the
    /// one call to it, for ``CRC32`` and the gzip trailer.
    static func crc32(continuing crc: UInt32, over bytes: UnsafeRawBufferPointer) -> UInt32 {
        var rest = bytes
        var folded = crc
        // Carry-less multiplication where the processor has it, several
        // times zlib's speed; zlib takes the last bytes, under 16.
        if rest.count >= 64, foldsCRC, let base = rest.baseAddress {
            let count = rest.count & ~15
            folded = crc32_fold(folded, base.assumingMemoryBound(to: UInt8.self), count)
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
        }
        var crc = uLong(folded)
        // zlib takes a 32-bit length: a larger buffer goes in slices.
        while !rest.isEmpty {
            let count = min(rest.count, Int(UInt32.max))
            crc = CZlib.crc32(crc, rest.baseAddress?.assumingMemoryBound(to: Bytef.self), uInt(count))
            rest = UnsafeRawBufferPointer(rebasing: rest[count...])
        }
        return UInt32(truncatingIfNeeded: crc)
    }

    /// Whether ``crc32(continuing:over:)`` can fold (CCRC32): asked of the processor once.
    private static let foldsCRC = crc32_fold_available() != 0

    private func failure(_ status: Int32) -> GzipError {
        .deflateFailed(status: status, message: stream.pointee.msg.map { String(cString: $0) })
    }
}
