/// Produces a multipart body's bytes: each chunk is one buffer filled in place
/// with framing and in-memory parts (copied from the form's buffer) and file
/// contents (read straight into the chunk), so every byte is moved once.
///
/// A file is read through the descriptor its form held from when it was
/// measured (``HeldFile``), or else opened when its turn comes; it is closed
/// when it ends, so sending holds one descriptor at a time beyond those the
/// form holds. A chunk ends where the
/// compressibility of the bytes changes, so a gzip stream can store a JPEG
/// part and deflate the framing around it.
struct MultipartChunkSource: ChunkSource {
    private let bytes: [UInt8]
    private let segments: [MultipartSegment]
    private let closing: [UInt8]
    /// Present when file and stream contents must be scanned for a caller-chosen boundary.
    private var scanner: BoundaryScanner?
    private let boundary: String

    /// The segment being sent; `segments.count` means the closing delimiter.
    private var index = 0
    /// Bytes of the current segment already sent (memory and closing only).
    private var offset = 0
    private var reader: FileReader?
    private var stream: (any ChunkSource)?

    init(form: MultipartFormData) {
        bytes = form.bytes
        segments = form.segments
        closing = form.closingDelimiter
        scanner = form.boundary.isCallerChosen ? BoundaryScanner(search: form.boundarySearch) : nil
        boundary = form.boundary.value
    }

    mutating func nextChunk<Storage: ChunkStorage>(maximumLength: Int, as storage: Storage.Type) async throws -> BodyChunk<Storage>? {
        while index <= segments.count {
            if index < segments.count, case .stream(let body, let name, let isCompressible) = segments[index] {
                if let chunk = try await nextStreamChunk(body: body, name: name, maximumLength: maximumLength, as: Storage.self) {
                    return BodyChunk(chunk, isCompressible: isCompressible)
                }
                continue
            }
            let isCompressible = index < segments.count ? segments[index].isCompressible : true
            let capacity = bytesAhead(isCompressible: isCompressible, limit: maximumLength)
            var filled = 0
            let chunk = try Storage(capacity: capacity) { buffer in
                filled = try fill(buffer, isCompressible: isCompressible)
                return filled
            }
            if filled > 0 { return BodyChunk(chunk, isCompressible: isCompressible) }
            // Only empty files were crossed; go on to what follows them.
        }
        return nil
    }

    /// The bytes that can go into the next chunk without reaching a stream or a
    /// change of compressibility, at most `limit`; sizes the chunk's buffer.
    private func bytesAhead(isCompressible: Bool, limit: Int) -> Int {
        var total = 0
        var position = index
        var skip = offset
        while position <= segments.count, total < limit {
            guard position < segments.count else {
                if isCompressible { total += closing.count - skip }  // the closing delimiter is compressible framing
                break
            }
            let segment = segments[position]
            let length: Int
            switch segment {
            case .memory(let start, let end, _): length = end - start - skip
            case .file(_, let fileLength, _, _, _):
                let alreadyRead = position == index ? reader?.bytesRead ?? 0 : 0
                length = Int(clamping: fileLength - alreadyRead)
            case .stream: return min(total, limit)
            }
            if length > 0, segment.isCompressible != isCompressible { break }
            total += length
            skip = 0
            position += 1
        }
        return min(total, limit)
    }

    /// Moves past `count` bytes without producing them: memory by index,
    /// files by seeking, so a slice of a form starts in the right file part
    /// without reading the parts before it.
    ///
    /// With a caller-chosen boundary, a file part is scanned as it is sent:
    /// when the skip ends inside one, the boundary's length less one byte
    /// before the new position is read back through the scanner, so an
    /// occurrence that straddles the position is still found. A stream part
    /// cannot seek: its bytes are read and dropped.
    mutating func skip(_ count: Int64) async throws -> Int64 {
        var left = max(0, count)
        while left > 0, index <= segments.count {
            guard index < segments.count else {
                let step = min(Int64(closing.count - offset), left)
                offset += Int(step)
                left -= step
                if offset == closing.count { index += 1; offset = 0 }
                continue
            }
            switch segments[index] {
            case .memory(let start, let end, _):
                let step = min(Int64(end - start - offset), left)
                offset += Int(step)
                left -= step
                if offset == end - start { index += 1; offset = 0 }
            case .file(let location, let length, let name, _, let held):
                do {
                    let file = try currentReader(location, length: length, held: held)
                    let step = min(file.remaining, left)
                    try skipInFile(file, by: step, part: name, location: location)
                    left -= step
                    try moveOnIfFileEnded(file)
                } catch let error as RequestBodyError {
                    reader = nil
                    throw error.naming(part: name)
                }
                if reader == nil { scanner?.reset() }
            case .stream:
                // Read and dropped, as any source without a seek.
                guard let dropped = try await nextChunk(maximumLength: Int(min(1024 * 1024, left)), as: [UInt8].self) else {
                    return max(0, count) - left
                }
                left -= Int64(dropped.storage.count)
            }
        }
        return max(0, count) - left
    }

    /// Moves `step` bytes into the current file part by seeking; with a
    /// scanner, and a position short of the file's end, the bytes just before
    /// it are read back and scanned (those before them were scanned when sent).
    private mutating func skipInFile(_ file: FileReader, by step: Int64, part: String, location: FileLocation) throws {
        let target = file.bytesRead + step
        guard scanner != nil, target < file.expectedLength else {
            try file.skip(step)
            return
        }
        // An occurrence that straddles the target starts at most this far before it.
        let context = Int64(boundary.utf8.count - 1)
        let rescanFrom = max(file.bytesRead, target - context)
        if rescanFrom > file.bytesRead {
            try file.skip(rescanFrom - file.bytesRead)
            scanner?.reset()
        }
        let count = Int(target - rescanFrom)
        guard count > 0 else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: count, alignment: FileReader.bufferAlignment)
        defer { buffer.deallocate() }
        var filled = 0
        while filled < count {
            let read = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
            guard read > 0 else { break }
            filled += read
        }
        if scanner?.scan(UnsafeRawBufferPointer(rebasing: buffer[..<filled])) == true {
            throw MultipartError.boundaryInContent(part: part, file: location.description, boundary: boundary)
        }
    }

    /// Fills `buffer` from the current position; returns the byte count.
    private mutating func fill(_ buffer: UnsafeMutableRawBufferPointer, isCompressible: Bool) throws -> Int {
        var filled = 0
        while index <= segments.count, filled < buffer.count || isAtEmptyFile {
            guard index < segments.count else {
                guard isCompressible else { return filled }
                filled += copy(closing, from: offset, to: buffer, at: filled, segmentEnd: closing.count)
                continue
            }
            switch segments[index] {
            case .memory(let start, let end, let flag):
                guard flag == isCompressible else { return filled }
                filled += copy(bytes, from: start + offset, to: buffer, at: filled, segmentEnd: end)
            case .file(let location, let length, let name, let flag, let held):
                guard flag == isCompressible || length == 0 else { return filled }
                filled += try readFile(at: location, length: length, held: held, part: name, into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                // A file with bytes left ends the chunk, full or ended on a
                // page of the file (see readFile).
                if reader != nil { return filled }
            case .stream:
                return filled
            }
        }
        return filled
    }

    /// Whether the current segment is a file with no bytes left to read, which
    /// must still be opened and checked even when the chunk is full.
    private var isAtEmptyFile: Bool {
        guard index < segments.count, case .file(_, let length, _, _, _) = segments[index] else { return false }
        return length - (reader?.bytesRead ?? 0) == 0
    }

    /// Copies from `source[position..<segmentEnd]` as far as the buffer allows,
    /// moving to the next segment when the stretch is done.
    private mutating func copy(_ source: [UInt8], from position: Int, to buffer: UnsafeMutableRawBufferPointer, at filled: Int, segmentEnd: Int) -> Int {
        let count = min(segmentEnd - position, buffer.count - filled)
        source.withUnsafeBytes { bytes in
            guard let from = bytes.baseAddress, let to = buffer.baseAddress else { return }
            (to + filled).copyMemory(from: from + position, byteCount: count)
        }
        offset += count
        if position + count == segmentEnd {
            index += 1
            offset = 0
        }
        return count
    }

    /// Reads the current file part into `buffer`, opening it first and closing
    /// it (after checking it did not grow) once all its bytes are read. When
    /// the file goes on past the buffer, the read stops at the last page
    /// boundary of the file within it: a part header before the file would
    /// otherwise put every later read of it at a distance the kernel copies
    /// at a fraction of its speed (``FileReader/copiesSlowly(to:fromFileOffset:)``).
    private mutating func readFile(
        at location: FileLocation, length: Int64, held: HeldFile?, part: String, into buffer: UnsafeMutableRawBufferPointer
    ) throws -> Int {
        let count: Int
        do throws(RequestBodyError) {
            let file = try currentReader(location, length: length, held: held)
            let wanted = file.lengthEndingOnAPage(within: buffer.count)
            count = try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<wanted]))
            try moveOnIfFileEnded(file)
        } catch {
            reader = nil
            throw error.naming(part: part)
        }
        if count > 0, scanner?.scan(UnsafeRawBufferPointer(rebasing: buffer[..<count])) == true {
            throw MultipartError.boundaryInContent(part: part, file: location.description, boundary: boundary)
        }
        if reader == nil { scanner?.reset() }
        return count
    }

    /// Once the current file part has no bytes left: checks it did not grow,
    /// closes it and moves to the next segment.
    private mutating func moveOnIfFileEnded(_ file: FileReader) throws(RequestBodyError) {
        guard file.remaining == 0 else { return }
        _ = try file.read(into: UnsafeMutableRawBufferPointer(start: nil, count: 0))  // fails if it grew
        reader = nil
        index += 1
        offset = 0
    }

    /// The reader of the current file part: the one the form held from when
    /// it measured the file, on the body's first read, else opened now.
    private mutating func currentReader(_ location: FileLocation, length: Int64, held: HeldFile?) throws(RequestBodyError) -> FileReader {
        if let reader { return reader }
        let file = if let taken = held?.take() { taken } else { try FileReader(location, expectedLength: length) }
        reader = file
        return file
    }

    /// The next chunk of a stream part, or `nil` (moving past it) when it ends.
    private mutating func nextStreamChunk<Storage: ChunkStorage>(
        body: RequestBody, name: String, maximumLength: Int, as storage: Storage.Type
    ) async throws -> Storage? {
        var source: any ChunkSource
        do {
            source = try stream ?? body.makeChunkSource()
        } catch let error as RequestBodyError {
            throw error.naming(part: name)
        }
        stream = nil
        let next: Storage?
        do {
            next = try await source.nextChunk(maximumLength: maximumLength, as: Storage.self)?.storage
        } catch let error as RequestBodyError {
            throw error.naming(part: name)
        }
        guard let chunk = next else {
            scanner?.reset()
            index += 1
            offset = 0
            return nil
        }
        stream = source
        if scanner != nil {
            let found = chunk.withUnsafeBytes { scanner?.scan($0) ?? false }
            if found { throw MultipartError.boundaryInContent(part: name, file: nil, boundary: boundary) }
        }
        return chunk
    }
}
