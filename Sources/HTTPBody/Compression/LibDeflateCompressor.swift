#if canImport(CLibDeflate)
// The one Swift file in HTTPBody that imports libdeflate and the deflate walker (house style, practice 8).
import CDeflateWalk
import CLibDeflate

/// One libdeflate compressor at one level: the ``BlockCompressor`` where
/// libdeflate is linked.
///
/// libdeflate compresses a whole buffer into a complete raw deflate stream
/// whose last block has BFINAL set and may end mid-byte. A block that is not
/// the body's last is made joinable by walking its data (CDeflateWalk) to
/// the final block's header, clearing BFINAL there, and appending an empty
/// stored block after its end, as zlib's sync flush does: three zero bits,
/// zeros to the byte boundary, then 00 00 FF FF. The next block then starts
/// on a byte boundary, so the blocks' data concatenate into one stream that
/// the body's last block ends. A walk that fails, or that decodes to other
/// than the block's length, is an error: the body is never sent corrupt.
///
/// Not `Sendable`: a compressor must not be used by two threads at once, so
/// each stays with the thread or task that made it.
final class LibDeflateCompressor {
    /// libdeflate has no preset dictionary: each block is compressed on its own.
    static let primesBlocks = false

    /// The library and the version of the header it was built against.
    static let engine = "libdeflate \(LIBDEFLATE_VERSION_STRING)"

    /// An empty final block as zlib writes it: BFINAL 1, BTYPE 01 (fixed
    /// Huffman), the 7-bit end-of-block code; libdeflate writes an empty
    /// stored block, 3 bytes longer.
    private static let emptyFinalBlock: [UInt8] = [0x03, 0x00]

    /// The empty stored block's length and its complement (RFC 1951, section 3.2.4).
    private static let emptyStoredLength: [UInt8] = [0x00, 0x00, 0xFF, 0xFF]

    private let compressor: OpaquePointer
    /// Where libdeflate writes a block's data, reused from block to block;
    /// each output is then copied out at its exact size. At most
    /// libdeflate's bound for a full block plus the joining's 5 bytes.
    private var scratch: [UInt8] = []

    /// A compressor at `level`, 1-9 (the levels libdeflate shares with zlib).
    init(level: Int32) throws(GzipError) {
        guard let compressor = libdeflate_alloc_compressor(level) else {
            throw .compressorUnavailable(library: "libdeflate", level: level)
        }
        self.compressor = compressor
    }

    deinit {
        libdeflate_free_compressor(compressor)
    }

    /// Deflates a whole block; its dictionary is not used. The last block
    /// ends the stream; any other ends on a byte boundary.
    func compress(_ block: GzipBlockReader.Block) throws(GzipError) -> Deflater.Output {
        if block.input.isEmpty, block.isLast {
            return Deflater.Output(bytes: Self.emptyFinalBlock, checksum: 0, inputLength: 0)
        }
        let joining = block.isLast ? 0 : 1 + Self.emptyStoredLength.count
        let bound = libdeflate_deflate_compress_bound(compressor, block.input.count) + joining
        if scratch.count < bound { scratch = [UInt8](repeating: 0, count: bound) }
        let produced = block.input.withUnsafeBytes { input in
            scratch.withUnsafeMutableBytes { output in
                // libdeflate reads no input byte when the count is 0, but wants a pointer.
                libdeflate_deflate_compress(compressor, input.baseAddress ?? UnsafeRawPointer(output.baseAddress), input.count, output.baseAddress, output.count - joining)
            }
        }
        guard produced > 0 else { throw .deflateFailed(library: "libdeflate", reason: "its output did not fit libdeflate's own bound") }
        let count = block.isLast ? produced : try joinable(produced: produced, inputLength: block.input.count)
        return Deflater.Output(bytes: Array(scratch[..<count]), checksum: Deflater.checksum(of: block.input), inputLength: block.input.count)
    }

    /// Turns the `produced` bytes in `scratch` into a non-final stream ending
    /// on a byte boundary, and returns its new length.
    private func joinable(produced: Int, inputLength: Int) throws(GzipError) -> Int {
        var walk = deflate_walk_result()
        let status = scratch.withUnsafeBufferPointer { deflate_walk($0.baseAddress, produced, &walk) }
        guard status == DEFLATE_WALK_OK else {
            throw .deflateFailed(library: "libdeflate", reason: "its data for a block could not be walked to the final block (walk status \(status.rawValue))")
        }
        guard walk.decompressed_length == UInt64(inputLength) else {
            throw .deflateFailed(library: "libdeflate", reason: "its data for a block of \(inputLength) bytes decode to \(walk.decompressed_length)")
        }
        let header = Int(walk.final_block_bit)
        scratch[header / 8] &= ~(1 << UInt8(header % 8))  // BFINAL = 0
        let end = Int(walk.end_bit)
        if end % 8 != 0 { scratch[end / 8] &= (1 << UInt8(end % 8)) - 1 }  // the bits after the block are zero
        // BFINAL 0 and BTYPE 00 (stored): three zero bits, then zeros to the byte boundary.
        let aligned = (end + 3 + 7) / 8
        for index in produced..<aligned { scratch[index] = 0 }
        scratch.replaceSubrange(aligned..<aligned + Self.emptyStoredLength.count, with: Self.emptyStoredLength)
        return aligned + Self.emptyStoredLength.count
    }
}

extension LibDeflateCompressor {
    /// Where a raw deflate stream's final block lies (CDeflateWalk), for the
    /// walker's tests and fuzz target.
    struct Walk: Equatable {
        /// The final block's BFINAL bit.
        var finalBlockBit: UInt64
        /// The bit after the final block.
        var endBit: UInt64
        /// The stream's decompressed length.
        var decompressedLength: UInt64
    }

    /// The walk of a whole raw deflate stream, or the walker's status code when it fails.
    static func walk(_ data: UnsafeRawBufferPointer) -> Result<Walk, WalkFailure> {
        var walk = deflate_walk_result()
        let status = deflate_walk(data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, &walk)
        guard status == DEFLATE_WALK_OK else { return .failure(WalkFailure(status: status.rawValue)) }
        return .success(Walk(finalBlockBit: walk.final_block_bit, endBit: walk.end_bit, decompressedLength: walk.decompressed_length))
    }

    /// A failed walk's status (deflate_walk_status).
    struct WalkFailure: Error, Equatable {
        /// The walker's status code.
        var status: UInt32
    }

    /// libdeflate's whole raw deflate stream for `input` at `level` (libdeflate's 1-12).
    static func rawDeflate(_ input: [UInt8], level: Int32) -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        var output = [UInt8](repeating: 0, count: libdeflate_deflate_compress_bound(compressor, input.count))
        let count = input.withUnsafeBytes { source in
            output.withUnsafeMutableBytes { target in
                libdeflate_deflate_compress(compressor, source.baseAddress ?? UnsafeRawPointer(target.baseAddress), source.count, target.baseAddress, target.count)
            }
        }
        return count > 0 ? Array(output[..<count]) : nil
    }
}
#endif
