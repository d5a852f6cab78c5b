#if canImport(Glibc)
import FuzzSupport
import Glibc
@testable import HTTPBody

/// The deflate walker that joins libdeflate's blocks into one gzip stream.
///
/// Input: a mode byte, then bytes. Even modes compress the bytes (as given,
/// repeated, or run-length expanded, to reach long matches and stored
/// blocks) with libdeflate at level 1-12: the walk must succeed, decode to
/// the input's length and end in the last byte; the block made joinable
/// (BFINAL cleared, an empty stored block after it) followed by an empty
/// final block must walk too, to the same length. Odd modes hand the bytes
/// to the walker as they are: it must return, and never read past the data,
/// which end just before a page the process may not read.
///
/// Invariants: nothing traps; no read outside the data; the walks above succeed.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzDeflateWalk(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let mode = Int(input.byte())
    let bytes = input.restBytes()
    if mode % 2 == 1 {
        _ = withGuardedCopy(of: bytes) { LibDeflateCompressor.walk($0) }
        return 0
    }
    let level = Int32(mode / 2 % 12 + 1)
    let source: [UInt8]
    switch mode / 24 % 3 {
    case 0: source = bytes
    case 1: source = Array(repeatElement(bytes, count: 1 + mode % 50).joined())
    default: source = bytes.enumerated().flatMap { index, byte in repeatElement(byte, count: index % 2 == 0 ? Int(byte % 64) : 1) }
    }
    guard let data = LibDeflateCompressor.rawDeflate(source, level: level) else {
        fuzzCheck(false, "libdeflate could not compress \(source.count) bytes at level \(level)")
        return 0
    }
    let walked = withGuardedCopy(of: data) { LibDeflateCompressor.walk($0) }
    guard case .success(let walk) = walked else {
        fuzzCheck(false, "libdeflate's data at level \(level) for \(source.count) bytes do not walk: \(walked)")
        return 0
    }
    fuzzCheck(walk.decompressedLength == UInt64(source.count), "walked \(walk.decompressedLength) of \(source.count) bytes")
    fuzzCheck(walk.finalBlockBit < walk.endBit && (walk.endBit + 7) / 8 == UInt64(data.count), "final block \(walk.finalBlockBit)..<\(walk.endBit) in \(data.count) bytes")
    guard !source.isEmpty, let compressor = try? LibDeflateCompressor(level: min(level, 9)) else { return 0 }
    let block = GzipBlockReader.Block(input: source, level: min(level, 9), dictionary: [], isLast: false)
    guard let output = try? compressor.compress(block) else {
        fuzzCheck(false, "a non-final block of \(source.count) bytes at level \(level) could not be made joinable")
        return 0
    }
    // An empty final fixed-Huffman block after it ends the stream.
    let joined = output.bytes + [0x03, 0x00]
    let rewalked = withGuardedCopy(of: joined) { LibDeflateCompressor.walk($0) }
    guard case .success(let whole) = rewalked else {
        fuzzCheck(false, "the joinable block and a final one do not walk: \(rewalked)")
        return 0
    }
    fuzzCheck(whole.decompressedLength == UInt64(source.count), "the joined stream walks to \(whole.decompressedLength) of \(source.count) bytes")
    fuzzCheck(whole.finalBlockBit == UInt64(output.bytes.count * 8), "the joined stream's final block is at bit \(whole.finalBlockBit)")
    return 0
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzDeflateWalk_main")
public func fuzzDeflateWalkMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzDeflateWalk)
}

/// Runs `body` on a copy of `bytes` that ends exactly where an unreadable
/// page begins, so any read past the end faults.
private func withGuardedCopy<Result>(of bytes: [UInt8], _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
    let page = Int(sysconf(Int32(_SC_PAGESIZE)))
    let dataPages = (bytes.count + page - 1) / page
    let total = (dataPages + 1) * page
    guard let mapping = mmap(nil, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0), mapping != UnsafeMutableRawPointer(bitPattern: -1) else {
        fuzzCheck(false, "mmap of \(total) bytes failed")
        return bytes.withUnsafeBytes(body)
    }
    defer { munmap(mapping, total) }
    let guardPage = mapping + dataPages * page
    fuzzCheck(mprotect(guardPage, page, PROT_NONE) == 0, "mprotect failed")
    let start = guardPage - bytes.count
    bytes.withUnsafeBytes { source in
        if let base = source.baseAddress { start.copyMemory(from: base, byteCount: source.count) }
    }
    return body(UnsafeRawBufferPointer(start: start, count: bytes.count))
}
#endif
