import Dispatch
import Foundation

/// Whether a file holds a boundary, read before anything is sent: the check
/// behind a caller-chosen boundary (`uploader --boundary`).
///
/// A large file is read in as many stretches as there are cores (at most
/// four), each on a thread of its own and each reaching the boundary's
/// length minus one byte into the next, so an occurrence across a seam is
/// found. The check reads every byte once more than sending does; spread
/// over the cores it costs about half a read of the file instead of a whole
/// one.
package enum FileBoundaryCheck {
    /// Files smaller than this are read on the calling thread alone: for them
    /// a thread's start costs more than it saves.
    static let parallelThreshold: Int64 = 16 << 20

    /// How many stretches a file of `length` bytes is read in.
    static func laneCount(forLength length: Int64) -> Int {
        guard length >= parallelThreshold else { return 1 }
        return min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }

    /// Whether the file at `location`, `length` bytes when measured, holds
    /// `search`'s pattern; `lanes` stretches read at once (the default
    /// suits the machine; tests choose it to put a seam where they want).
    ///
    /// - Throws: ``RequestBodyError`` when the file cannot be read or no
    ///   longer has `length` bytes.
    package static func fileContains(
        _ search: BoundarySearch,
        at location: FileLocation,
        length: Int64,
        lanes: Int? = nil
    ) throws(RequestBodyError) -> Bool {
        let reader = try FileReader(location, expectedLength: length)
        let shared = OffsetReads(reader: reader)
        let lanes = max(1, min(lanes ?? laneCount(forLength: length), Int(max(1, length))))
        let overlap = Int64(search.pattern.count - 1)
        let stretch = (length + Int64(lanes) - 1) / Int64(lanes)
        let outcome = LockedValue<(found: Bool, failure: RequestBodyError?)>((false, nil))
        let scan = { @Sendable (lane: Int) in
            let start = Int64(lane) * stretch
            let end = min(length, start + stretch + overlap)
            do throws(RequestBodyError) {
                if try scanStretch(of: shared.reader, from: start, to: end, for: search, stopping: { outcome.withLock { $0.found || $0.failure != nil } }) {
                    outcome.withLock { $0.found = true }
                }
            } catch {
                outcome.withLock { if $0.failure == nil { $0.failure = error } }
            }
        }
        if lanes == 1 {
            scan(0)
        } else {
            DispatchQueue.concurrentPerform(iterations: lanes, execute: scan)
        }
        let (found, failure) = outcome.withLock { $0 }
        if let failure { throw failure }
        if found { return true }
        try reader.checkEnds()
        return false
    }

    /// Reads bytes `start..<end` of the file in 256 KiB pieces, scanning each;
    /// stops early when `stopping` says another stretch settled the answer.
    private static func scanStretch(
        of reader: FileReader,
        from start: Int64,
        to end: Int64,
        for search: BoundarySearch,
        stopping: () -> Bool
    ) throws(RequestBodyError) -> Bool {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: RequestBody.defaultChunkSize, alignment: FileReader.bufferAlignment)
        defer { buffer.deallocate() }
        var scanner = BoundaryScanner(search: search)
        var offset = start
        while offset < end, !stopping() {
            let wanted = Int(min(Int64(buffer.count), end - offset))
            let count = try reader.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]), at: offset)
            if count == 0 { break }
            if scanner.scan(UnsafeRawBufferPointer(rebasing: buffer[..<count])) { return true }
            offset += Int64(count)
        }
        return false
    }
}

/// A reader the stretches of ``FileBoundaryCheck`` share across threads.
/// `@unchecked Sendable` because they call only `read(into:at:)`, a `pread(2)`
/// that reads fields set once when the file was opened; the reader's
/// position, which `read(into:)` moves, is never touched.
private struct OffsetReads: @unchecked Sendable {
    let reader: FileReader
}
