#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads one file front to back with plain `read(2)` calls, checking that it
/// holds exactly the number of bytes it had when it was measured.
///
/// The file is opened when the reader is created (or its descriptor handed
/// over: ``HeldFile``) and closed when it is released, so a body sending
/// many files reads one at a time.
/// Reads block the calling thread; for files in the page cache that costs
/// less than handing each read to another thread.
package final class FileReader {
    /// Where the file is; its text (``path``) is made only for a message.
    package let location: FileLocation
    /// The path, for messages.
    package var path: String { location.description }
    package let expectedLength: Int64
    package private(set) var bytesRead: Int64 = 0
    private var descriptor: Int32
    /// Whether the end of the file has been checked (see ``checkEndOfFile()``).
    private var endChecked = false

    /// The alignment of memory a file is read into: with a file read from
    /// offsets that are multiples of it too, the copy from the page cache
    /// never lands a slow distance (see ``copiesSlowly(to:fromFileOffset:)``).
    /// `malloc` gives large blocks at offset 16 of a page.
    package static let bufferAlignment = 64

    /// Whether the kernel copies a file's bytes at `offset` into
    /// `destination` at a fraction of its speed: it copies with `rep movsb`,
    /// which AMD's Zen cores run 5 to 15 times slower when the destination
    /// lies 1 to 31 bytes past the source, counted modulo a page (in user
    /// space as in the kernel, and glibc's `memcpy` only steers clear of
    /// that distance modulo 4 GiB). A part header of 132 bytes puts a
    /// multipart body's file reads at distance 4 (Benchmarks/README.md has
    /// the figures). The distance
    /// stays the same all through one contiguous read, so it is checked once
    /// a read; 63 rather than 31 leaves a margin for other cores.
    @inline(__always)
    static func copiesSlowly(to destination: UnsafeMutableRawPointer, fromFileOffset offset: Int64) -> Bool {
        let distance = (Int(bitPattern: destination) &- Int(truncatingIfNeeded: offset)) & (pageSize - 1)
        return distance != 0 && distance < 64
    }

    /// The page size the distance above is counted in.
    private static let pageSize = 4096

    /// Memory the reads in order go through at a slow distance (see
    /// ``readBounced(into:count:fileOffset:through:_:)``), made on first use.
    private var bounce: UnsafeMutableRawBufferPointer?

    /// The most one read through ``bounce`` takes: large enough that the
    /// system calls stay few, small enough to stay in the core's cache.
    private static let bouncePiece = 64 * 1024

    /// Files at least this large are read with the kernel's read-ahead
    /// doubled (`POSIX_FADV_SEQUENTIAL`); a smaller one is taken in one or two
    /// reads, where the advice would only cost a system call.
    private static let sequentialAdviceThreshold: Int64 = 1 << 20

    /// Opens a file measured earlier, failing if its size is no longer `expectedLength`.
    package convenience init(_ location: FileLocation, expectedLength: Int64) throws(RequestBodyError) {
        try self.init(location, length: expectedLength)
    }

    /// Opens a file and measures it now (``expectedLength`` is its size), so
    /// that a file is sized and its first bytes read with one open: what
    /// appending a part whose type is sniffed needs, where `FileStatus`
    /// and a reader would look the path up twice.
    package convenience init(measuring location: FileLocation) throws(RequestBodyError) {
        try self.init(location, length: nil)
    }

    private init(_ location: FileLocation, length: Int64?) throws(RequestBodyError) {
        self.location = location
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a
        // writer, forever if none comes (one swapped in for a file after it
        // was measured, say). It is cleared once the file proves regular
        // where it could matter.
        descriptor = location.withCString { open($0, O_RDONLY | O_CLOEXEC | O_NONBLOCK) }
        guard descriptor >= 0 else {
            let code = errno
            let path = location.description
            if code == ENOENT || code == ENOTDIR { throw .fileNotFound(path) }
            // A directory or socket that cannot be opened is named as what it
            // is, as `FileStatus` names it, rather than as unreadable.
            _ = try FileStatus(location)
            throw .fileUnreadable(path, errno: code)
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            let code = errno
            close(descriptor)
            throw .fileUnreadable(location.description, errno: code)
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .notARegularFile(location.description, isDirectory: info.st_mode & S_IFMT == S_IFDIR)
        }
        let size = Int64(info.st_size)
        if let length, size != length {
            close(descriptor)
            throw .fileChangedSize(location.description, expected: length, actual: "now \(size) bytes")
        }
        expectedLength = size
        #if !os(Linux)
        // The status flags hold nothing but O_NONBLOCK: clearing them all
        // takes one call where reading them first would take two. Linux
        // ignores O_NONBLOCK on regular files (open(2)), so there the call
        // is skipped: one system call less per file.
        _ = fcntl(descriptor, F_SETFL, 0)
        #endif
        #if os(Linux)
        if size >= Self.sequentialAdviceThreshold {
            _ = posix_fadvise(descriptor, 0, 0, POSIX_FADV_SEQUENTIAL)
        }
        #endif
    }

    /// A reader of a descriptor opened and measured earlier (``releaseDescriptor()``
    /// of a reader made with `measuring:`), at the file's start, `length`
    /// bytes long when measured; it closes the descriptor when released.
    package init(adopting descriptor: Int32, location: FileLocation, length: Int64) {
        self.location = location
        self.descriptor = descriptor
        self.expectedLength = length
    }

    /// Gives up the descriptor, which the caller closes; the reader reads no more.
    package func releaseDescriptor() -> Int32 {
        defer { descriptor = -1 }
        return descriptor
    }

    deinit {
        if descriptor >= 0 { close(descriptor) }
        bounce?.deallocate()
    }

    /// The bytes not yet read.
    package var remaining: Int64 { expectedLength - bytesRead }

    /// Fills as much of `buffer` as the file has left and returns the count;
    /// 0 means the file ended exactly at its expected length.
    ///
    /// Fails if the file ends early or turns out longer than measured; the
    /// read that reaches the expected length checks the file ends there, so a
    /// grown file fails before its last bytes go out. When `buffer` has room
    /// past the file's last byte, that read asks for one byte more: a regular
    /// file's read comes back short only at its end, so a short answer is
    /// the check, without a read of its own.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(RequestBodyError) -> Int {
        guard remaining > 0 else {
            try checkEndOfFile()
            return 0
        }
        guard let base = buffer.baseAddress else { return 0 }
        let wanted = Int(min(Int64(buffer.count), remaining))
        let probe = buffer.count > wanted && !endChecked ? 1 : 0
        let bounce = Self.copiesSlowly(to: base, fromFileOffset: bytesRead) ? keptBounce() : nil
        var filled = 0
        while filled < wanted {
            let asked = wanted - filled + probe
            let count = if let bounce {
                Self.readBounced(into: base + filled, count: asked, fileOffset: bytesRead + Int64(filled), through: bounce) {
                    systemRead(descriptor, $0, $1)
                }
            } else {
                systemRead(descriptor, base + filled, asked)
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileUnreadable(path, errno: errno)
            }
            if count == 0 {
                throw .fileChangedSize(path, expected: expectedLength, actual: "it ended after \(bytesRead + Int64(filled))")
            }
            if count > wanted - filled {
                throw .fileChangedSize(path, expected: expectedLength, actual: "it grew past that")
            }
            filled += count
            if probe == 1, count < asked, filled == wanted, count > 0 {
                // Asked past the end and came back at it: the file ends there.
                endChecked = true
            }
        }
        bytesRead += Int64(filled)
        if remaining == 0 {
            // Probe before the last bytes are handed over: a file that grew
            // then fails while the receiver still holds a short body, rather
            // than after it holds a complete one.
            try checkEndOfFile()
        }
        return filled
    }

    /// Reads up to `maximumLength` bytes from the start for a sniffer to look
    /// at, without checking the file against its size (a file that changes
    /// is caught when it is sent, and a sample needs no end-of-file probe)
    /// and without moving the reader: `pread(2)` at offset 0, so the same
    /// descriptor then sends the file from its first byte.
    package func readSample(maximumLength: Int) throws(RequestBodyError) -> [UInt8] {
        let wanted = Int(min(Int64(max(0, maximumLength)), expectedLength))
        var failure: Int32 = 0
        let sample = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, count in
            guard let base = buffer.baseAddress else { return }
            while count < wanted {
                let read = pread(descriptor, base + count, wanted - count, off_t(count))
                if read < 0, errno == EINTR { continue }
                if read < 0 { failure = errno }
                if read <= 0 { return }
                count += read
            }
        }
        if failure != 0 { throw .fileUnreadable(path, errno: failure) }
        return sample
    }

    /// Fills `buffer` from `offset` with `pread(2)`, leaving the reader where
    /// it was: what reading one file on several threads at once needs.
    /// Returns the count, short only where the file ends, and fails when it
    /// ends before `offset + buffer.count` while that is within the measured
    /// length (the file shrank).
    package func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(RequestBodyError) -> Int {
        guard let base = buffer.baseAddress, !buffer.isEmpty else { return 0 }
        // Its own memory, not the kept one: this read may run on several threads at once.
        let bounce = Self.copiesSlowly(to: base, fromFileOffset: offset) ? Self.makeBounce() : nil
        defer { bounce?.deallocate() }
        var filled = 0
        while filled < buffer.count {
            let position = offset + Int64(filled)
            let count = if let bounce {
                Self.readBounced(into: base + filled, count: buffer.count - filled, fileOffset: position, through: bounce) {
                    pread(descriptor, $0, $1, off_t(position))
                }
            } else {
                pread(descriptor, base + filled, buffer.count - filled, off_t(position))
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .fileUnreadable(path, errno: errno)
            }
            if count == 0 { break }
            filled += count
        }
        let end = offset + Int64(filled)
        if filled < buffer.count, end < expectedLength {
            throw .fileChangedSize(path, expected: expectedLength, actual: "it ended after \(end)")
        }
        return filled
    }

    /// Fails if the file now holds more than its measured length (one
    /// `pread(2)` of a byte past it), for a reader used by offset.
    package func checkEnds() throws(RequestBodyError) {
        var probe: UInt8 = 0
        while true {
            let count = pread(descriptor, &probe, 1, off_t(expectedLength))
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .fileUnreadable(path, errno: errno) }
            if count > 0 { throw .fileChangedSize(path, expected: expectedLength, actual: "it grew past that") }
            return
        }
    }

    /// Moves past the next `count` bytes without reading them (`lseek(2)`),
    /// as if they had been read; at most what the file has left.
    package func skip(_ count: Int64) throws(RequestBodyError) {
        let skipped = min(max(0, count), remaining)
        guard skipped > 0 else { return }
        guard lseek(descriptor, off_t(skipped), SEEK_CUR) >= 0 else { throw .fileUnreadable(path, errno: errno) }
        bytesRead += skipped
    }

    /// Reads the next `maximumLength` bytes at most straight into new storage
    /// (one copy, kernel to storage); `nil` once the file has ended, after
    /// checking that it did not grow.
    package func readChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) throws(RequestBodyError) -> Storage? {
        let capacity = Int(min(Int64(max(0, maximumLength)), remaining))
        guard capacity > 0 else {
            _ = try read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0))  // checks the file did not grow
            return nil
        }
        var failure: RequestBodyError?
        let chunk = Storage(capacity: capacity) { buffer in
            do throws(RequestBodyError) {
                return try read(into: buffer)
            } catch {
                failure = error
                return 0
            }
        }
        if let failure { throw failure }
        return chunk
    }

    /// The length of a read of up to `available` bytes that ends on a page
    /// of the file: `available` when the file ends within it, or when it
    /// holds no page boundary. A body that ends each chunk's share of a file
    /// there starts the next chunk's on a page, so that memory aligned to
    /// ``bufferAlignment`` is never at a slow distance from it, whatever
    /// came before the file in the body (a part header, say).
    package func lengthEndingOnAPage(within available: Int) -> Int {
        guard Int64(available) < remaining else { return available }
        let end = (bytesRead + Int64(available)) & ~Int64(Self.pageSize - 1)
        return end > bytesRead ? Int(end - bytesRead) : available
    }

    /// Reads up to `count` bytes at `fileOffset` into `destination`, which
    /// ``copiesSlowly(to:fromFileOffset:)``, through `memory` (one of
    /// ``makeBounce()``): `read` fills it at half a page from the source's
    /// distance, and the bytes are copied on from there at half a page too.
    /// Returns what `read`
    /// returns, with `errno` as it left it.
    private static func readBounced(
        into destination: UnsafeMutableRawPointer, count: Int, fileOffset: Int64,
        through memory: UnsafeMutableRawBufferPointer, _ read: (UnsafeMutableRawPointer, Int) -> Int
    ) -> Int {
        guard let start = memory.baseAddress else { return read(destination, count) }
        let landing = start + ((Int(truncatingIfNeeded: fileOffset) &+ pageSize / 2) & (pageSize - 1))
        let result = read(landing, min(count, bouncePiece))
        if result > 0 { destination.copyMemory(from: landing, byteCount: result) }
        return result
    }

    /// ``bounce``, made now if this is its first use.
    private func keptBounce() -> UnsafeMutableRawBufferPointer {
        if let bounce { return bounce }
        let made = Self.makeBounce()
        bounce = made
        return made
    }

    /// Memory for ``readBounced(into:count:fileOffset:through:_:)``: a piece
    /// and a page, so a piece lands anywhere within a page.
    private static func makeBounce() -> UnsafeMutableRawBufferPointer {
        .allocate(byteCount: bouncePiece + pageSize, alignment: pageSize)
    }

    /// A file that grew would make the body longer than its Content-Length;
    /// checked once, by a one-byte read that must find the end.
    private func checkEndOfFile() throws(RequestBodyError) {
        guard !endChecked else { return }
        var probe: UInt8 = 0
        while true {
            let count = systemRead(descriptor, &probe, 1)
            if count < 0, errno == EINTR { continue }
            if count < 0 { throw .fileUnreadable(path, errno: errno) }
            if count > 0 { throw .fileChangedSize(path, expected: expectedLength, actual: "it grew past that") }
            endChecked = true
            return
        }
    }
}

/// `read(2)` under one name on every platform.
@inline(__always)
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
