public import Foundation
public import SystemPackage
public import HTTPTypes

/// A `multipart/form-data` body (RFC 7578, framed as RFC 2046 says), built part
/// by part and sent as a stream.
///
/// Text fields and in-memory data are rendered, framing included, into one
/// buffer as they are appended, so 100,000 small fields cost a few large
/// allocations rather than 100,000 small ones. Files are opened and measured
/// when appended (their first bytes read, to sniff the type when none is
/// given) and kept open for the body's first read, up to a budget of
/// descriptors for the process, so each is opened once and sent as it was
/// measured; their contents are read while the body is sent, one chunk at a
/// time. Peak memory is therefore the in-memory parts plus one chunk,
/// whatever the size of the files.
///
/// ```swift
/// var form = MultipartFormData()
/// form.append("Holiday", name: "title")
/// try form.appendFile(at: URL(filePath: "beach.jpg"), name: "photo")
/// let body = try RequestBody.multipart(form)
/// ```
///
/// Problems found while appending a part that cannot throw (a header that would
/// break the framing, the boundary inside a part) are kept and thrown by
/// ``RequestBody/multipart(_:)`` or ``validate()``, naming the part.
public struct MultipartFormData: Sendable {
    /// The boundary between parts.
    public let boundary: MultipartBoundary

    /// Whether parts with a filename also carry RFC 5987's `filename*=UTF-8''…`
    /// parameter, which some legacy servers need for non-ASCII names.
    ///
    /// Off by default, as RFC 7578 section 4.2 advises.
    public let includesExtendedFilename: Bool

    /// The number of parts appended so far.
    public private(set) var count = 0

    /// Rendered framing and in-memory contents, front to back.
    var bytes: [UInt8] = []
    /// The body in order: stretches of `bytes`, files and streams.
    var segments: [MultipartSegment] = []
    /// The first problem found while appending.
    var problem: MultipartError?
    /// Where the head of the part being appended starts in `bytes`.
    private var partHeadStart = 0
    /// `--boundary` and `CRLF--boundary`, rendered once.
    private let delimiter: [UInt8]
    /// The search for the boundary in content, prepared once.
    let boundarySearch: BoundarySearch

    /// Creates an empty form.
    ///
    /// - Parameters:
    ///   - boundary: The boundary; a fresh random one by default.
    ///   - includesExtendedFilename: Whether to add `filename*` parameters; see
    ///     ``includesExtendedFilename``.
    public init(boundary: MultipartBoundary = .random(), includesExtendedFilename: Bool = false) {
        self.boundary = boundary
        self.includesExtendedFilename = includesExtendedFilename
        self.delimiter = Array("\r\n--".utf8) + boundary.bytes
        self.boundarySearch = BoundarySearch(pattern: boundary.bytes)
    }

    /// Throws the first problem found in the parts appended so far.
    public func validate() throws(MultipartError) {
        if let problem { throw problem }
    }

    // MARK: Appending parts

    /// Appends a text field, sent as UTF-8 without a `Content-Type` (RFC 7578, section 4.4).
    ///
    /// - Parameters:
    ///   - text: The field's value.
    ///   - name: The field name; repeat it to send several values.
    ///   - headers: Extra part headers, such as `Content-Language`.
    public mutating func append(_ text: String, name: String, headers: HTTPFields = [:]) {
        let contentStart = beginPart(name: name, filename: nil, contentType: nil, headers: headers)
        var text = text
        text.withUTF8 { bytes.append(contentsOf: $0) }
        endMemoryPart(name: name, contentStart: contentStart, isCompressible: true)
    }

    /// Appends bytes held in memory as a part.
    ///
    /// - Parameters:
    ///   - data: The part's content.
    ///   - name: The field name.
    ///   - filename: The filename to send, if the part stands for a file.
    ///   - contentType: The type to declare; when `nil`, sniffed from the bytes
    ///     (and the filename's extension) by `sniffer`, else `application/octet-stream`.
    ///   - headers: Extra part headers.
    ///   - sniffer: What finds the type when `contentType` is `nil`.
    public mutating func append(
        _ data: Data,
        name: String,
        filename: String? = nil,
        contentType: MediaType? = nil,
        headers: HTTPFields = [:],
        sniffer: some MediaTypeSniffer = .standard
    ) {
        data.withUnsafeBytes { buffer in
            appendBytes(buffer, name: name, filename: filename, contentType: contentType, headers: headers, sniffer: sniffer)
        }
    }

    /// Appends a byte array as a part, exactly as the `Data` variant does.
    public mutating func append(
        _ bytes: [UInt8],
        name: String,
        filename: String? = nil,
        contentType: MediaType? = nil,
        headers: HTTPFields = [:],
        sniffer: some MediaTypeSniffer = .standard
    ) {
        bytes.withUnsafeBytes { buffer in
            appendBytes(buffer, name: name, filename: filename, contentType: contentType, headers: headers, sniffer: sniffer)
        }
    }

    private mutating func appendBytes(
        _ content: UnsafeRawBufferPointer,
        name: String,
        filename: String?,
        contentType: MediaType?,
        headers: HTTPFields,
        sniffer: some MediaTypeSniffer
    ) {
        let type = contentType
            ?? sniffer.mediaType(of: MediaTypeSample(prefix: content, filename: filename))
            ?? .octetStream
        let contentStart = beginPart(name: name, filename: filename.map { Array($0.utf8) }, contentType: type, headers: headers)
        bytes.append(contentsOf: content)
        endMemoryPart(name: name, contentStart: contentStart, isCompressible: !type.isAlreadyCompressed)
    }

    /// Appends a file as a part; its contents are read only when the body is sent.
    ///
    /// The file's size is taken from the file system now, so the body's
    /// `Content-Length` is known; if the size differs when the file is sent,
    /// sending fails with ``RequestBodyError/Code/fileChangedSize``.
    ///
    /// - Parameters:
    ///   - url: A `file:` URL of a regular file.
    ///   - name: The field name.
    ///   - filename: The filename to send; the file's base name, byte for byte, by default.
    ///   - contentType: The type to declare; when `nil`, sniffed from the file's
    ///     first bytes by `sniffer`, else `application/octet-stream`.
    ///   - headers: Extra part headers.
    ///   - sniffer: What finds the type when `contentType` is `nil`.
    /// - Throws: ``RequestBodyError`` naming the part and the file when it is
    ///   missing, a directory or unreadable.
    public mutating func appendFile(
        at url: URL,
        name: String,
        filename: String? = nil,
        contentType: MediaType? = nil,
        headers: HTTPFields = [:],
        sniffer: some MediaTypeSniffer = .standard
    ) throws(RequestBodyError) {
        try appendFile(at: FileLocation(url), name: name, filename: filename.map { Array($0.utf8) }, contentType: contentType, headers: headers, sniffer: sniffer)
    }

    /// Appends a part streamed from the file at `path`, named byte for byte:
    /// a file whose name is not UTF-8 (which `URL` cannot carry on Linux) is
    /// opened by its exact bytes, and its base name goes on the wire as those
    /// bytes. Otherwise as ``appendFile(at:name:filename:contentType:headers:sniffer:)``.
    public mutating func appendFile(
        atPath path: FilePath,
        name: String,
        filename: String? = nil,
        contentType: MediaType? = nil,
        headers: HTTPFields = [:],
        sniffer: some MediaTypeSniffer = .standard
    ) throws(RequestBodyError) {
        try appendFile(at: FileLocation(path), name: name, filename: filename.map { Array($0.utf8) }, contentType: contentType, headers: headers, sniffer: sniffer)
    }

    /// Appends a part streamed from the file at `path`, sent with `filename`
    /// byte for byte: what a directory upload needs, whose filenames are
    /// paths (`dir/sub/file.ext`) of names that need not be UTF-8.
    package mutating func appendFile(
        atPath path: FilePath,
        name: String,
        filenameBytes filename: [UInt8],
        contentType: MediaType? = nil
    ) throws(RequestBodyError) {
        try appendFile(at: FileLocation(path), name: name, filename: filename, contentType: contentType, headers: [:], sniffer: .standard)
    }

    /// Makes room for `count` more parts, so a form of thousands grows its
    /// storage once rather than by doubling, when the old and the new copy
    /// of each would both be held: the room is reserved, and memory the
    /// parts do not fill is never touched.
    package mutating func reserveCapacity(forParts count: Int) {
        segments.reserveCapacity(segments.count + 2 * count + 1)
        bytes.reserveCapacity(bytes.count + 256 * count)
    }

    /// Appends a file measured and sniffed earlier, with many others at once
    /// (``MediaTypeSniffer/sniffFiles(at:lanes:)``), sent with `filename`
    /// byte for byte (the file's base name when `nil`) and `contentType`
    /// when given, else the sniffed type. The file is sent through the
    /// descriptor the sniff held, when it held one.
    package mutating func appendFile(_ file: SniffedFile, name: String, filenameBytes filename: [UInt8]?, contentType: MediaType? = nil) {
        appendFilePart(
            at: file.location, length: file.length, held: file.held, name: name,
            filename: filename ?? file.location.baseName, type: contentType ?? file.type, headers: [:]
        )
    }

    private mutating func appendFile(
        at location: FileLocation,
        name: String,
        filename: [UInt8]?,
        contentType: MediaType?,
        headers: HTTPFields,
        sniffer: some MediaTypeSniffer
    ) throws(RequestBodyError) {
        let file: FileReader
        let type: MediaType
        do throws(RequestBodyError) {
            // Sized, sampled and (held) sent through one open: a form of
            // 10,000 small files pays for each path lookup once.
            file = try FileReader(measuring: location)
            if let contentType {
                type = contentType
            } else {
                type = try sniffer.mediaType(of: file, at: location) ?? .octetStream
            }
        } catch {
            throw error.naming(part: name)
        }
        appendFilePart(
            at: location, length: file.expectedLength, held: HeldFile.holding(file), name: name,
            filename: filename ?? location.baseName, type: type, headers: headers
        )
    }

    private mutating func appendFilePart(
        at location: FileLocation, length: Int64, held: HeldFile?, name: String, filename: [UInt8], type: MediaType, headers: HTTPFields
    ) {
        _ = beginPart(name: name, filename: filename, contentType: type, headers: headers)
        checkForBoundary(from: partHeadStart, part: name)
        sealMemory(isCompressible: true)
        segments.append(.file(location, length: length, partName: name, isCompressible: length == 0 || !type.isAlreadyCompressed, held: held))
    }

    /// Appends a part read once from an async sequence of byte chunks, such as
    /// standard input. A form with such a part is not replayable.
    ///
    /// - Parameters:
    ///   - stream: The chunks, in order.
    ///   - length: The byte count, if known; the body's length is unknown otherwise.
    ///   - name: The field name.
    ///   - filename: The filename to send, if any.
    ///   - contentType: The type to declare; `application/octet-stream` when `nil`.
    ///   - headers: Extra part headers.
    public mutating func append<Chunks: AsyncSequence & Sendable>(
        stream: Chunks,
        length: Int64? = nil,
        name: String,
        filename: String? = nil,
        contentType: MediaType? = nil,
        headers: HTTPFields = [:]
    ) where Chunks.Element: Sequence<UInt8> {
        let type = contentType ?? .octetStream
        _ = beginPart(name: name, filename: filename.map { Array($0.utf8) }, contentType: type, headers: headers)
        checkForBoundary(from: partHeadStart, part: name)
        sealMemory(isCompressible: true)
        let body = RequestBody.stream(stream, length: length, contentType: type)
        segments.append(.stream(body, partName: name, isCompressible: !type.isAlreadyCompressed))
    }

    // MARK: Rendering

    /// Writes the delimiter and the part's head; returns where its content
    /// starts. A head that would break the framing is still written, and
    /// the first such problem recorded for ``validate()`` and the body to report.
    private mutating func beginPart(name: String, filename: [UInt8]?, contentType: MediaType?, headers: HTTPFields) -> Int {
        let extraFields = checkHead(name: name, filename: filename, contentType: contentType, headers: headers)
        writeDelimiter()
        let headStart = bytes.count
        writeContentDisposition(name: name, filename: filename)
        if let contentType { writeField("Content-Type", contentType.description.utf8) }
        for field in extraFields {
            field.withUnsafeBytesOfValue { writeField(field.name.rawName, $0) }
        }
        bytes.append(contentsOf: "\r\n".utf8)
        partHeadStart = headStart
        return bytes.count
    }

    /// Checks a part's head before it is written, recording the first
    /// problem: a control character in the name, filename or a value, a
    /// `Content-Disposition` given by hand, a second `Content-Type`. Returns
    /// the extra fields to write, those the encoder writes itself left out.
    private mutating func checkHead(name: String, filename: [UInt8]?, contentType: MediaType?, headers: HTTPFields) -> [HTTPField] {
        if ContentDisposition.hasUnescapableControl(name.utf8) || filename.map(ContentDisposition.hasUnescapableControl) == true {
            record(.invalidHeader(part: name, header: "Content-Disposition", reason: "has a name or filename with a control character other than CR and LF (which are escaped)"))
        }
        if let contentType, contentType.description.utf8.contains(where: ContentDisposition.isForbiddenInHeader) {
            record(.invalidHeader(part: name, header: "Content-Type", reason: "contains a control character such as CR or LF"))
        }
        var declaresType = contentType != nil
        var extraFields: [HTTPField] = []
        for field in headers {
            if field.name == .contentDisposition {
                record(.invalidHeader(part: name, header: "Content-Disposition", reason: "is written by the encoder and cannot be given as an extra header"))
                continue
            }
            if field.name == .contentType {
                if declaresType {
                    record(.invalidHeader(part: name, header: "Content-Type", reason: "is given twice"))
                    continue
                }
                declaresType = true
            }
            if field.withUnsafeBytesOfValue({ $0.contains(where: ContentDisposition.isForbiddenInHeader) }) {
                record(.invalidHeader(part: name, header: field.name.rawName, reason: "contains a control character such as CR or LF"))
            }
            extraFields.append(field)
        }
        return extraFields
    }

    /// The delimiter that opens a part; the first has no CRLF before it.
    private mutating func writeDelimiter() {
        bytes.append(contentsOf: count == 0 ? delimiter[2...] : delimiter[...])
        bytes.append(contentsOf: "\r\n".utf8)
        count += 1
    }

    /// `Content-Disposition: form-data; name="…"` with the filename, if any,
    /// escaped as browsers do, and `filename*` when the form asks for it.
    private mutating func writeContentDisposition(name: String, filename: [UInt8]?) {
        bytes.append(contentsOf: "Content-Disposition: form-data; name=\"".utf8)
        ContentDisposition.appendQuoted(name.utf8, to: &bytes)
        bytes.append(UInt8(ascii: "\""))
        if let filename {
            bytes.append(contentsOf: "; filename=\"".utf8)
            ContentDisposition.appendQuoted(filename, to: &bytes)
            bytes.append(UInt8(ascii: "\""))
            if includesExtendedFilename {
                bytes.append(contentsOf: "; filename*=UTF-8''".utf8)
                ContentDisposition.appendExtendedValue(filename, to: &bytes)
            }
        }
        bytes.append(contentsOf: "\r\n".utf8)
    }

    /// One `Name: value` line.
    private mutating func writeField(_ name: String, _ value: some Sequence<UInt8>) {
        bytes.append(contentsOf: name.utf8)
        bytes.append(contentsOf: ": ".utf8)
        bytes.append(contentsOf: value)
        bytes.append(contentsOf: "\r\n".utf8)
    }

    /// Checks an in-memory part's head and content for the boundary and
    /// closes its stretch of memory.
    private mutating func endMemoryPart(name: String, contentStart: Int, isCompressible: Bool) {
        checkForBoundary(from: partHeadStart, part: name)
        guard !isCompressible else { return }  // stays in the open compressible stretch
        sealMemory(isCompressible: true, end: contentStart)
        sealMemory(isCompressible: false)
    }

    /// Closes the stretch of `bytes` not yet covered by a segment, up to `end`.
    mutating func sealMemory(isCompressible: Bool, end: Int? = nil) {
        let end = end ?? bytes.count
        let start = segments.last(where: \.isMemory)?.memoryEnd ?? 0
        guard end > start else { return }
        if case .memory(let lastStart, let lastEnd, let lastFlag) = segments.last, lastEnd == start, lastFlag == isCompressible {
            segments[segments.count - 1] = .memory(start: lastStart, end: end, isCompressible: isCompressible)
        } else {
            segments.append(.memory(start: start, end: end, isCompressible: isCompressible))
        }
    }

    private mutating func checkForBoundary(from start: Int, part: String) {
        guard problem == nil else { return }
        let found = bytes.withUnsafeBytes { buffer in
            boundarySearch.occurs(in: UnsafeRawBufferPointer(rebasing: buffer[start...]))
        }
        if found { problem = .boundaryInContent(part: part, file: nil, boundary: boundary.value) }
    }

    private mutating func record(_ error: MultipartError) {
        if problem == nil { problem = error }
    }

    /// `CRLF--boundary--CRLF`, or `--boundary--CRLF` for a form without parts.
    var closingDelimiter: [UInt8] {
        (count == 0 ? Array(delimiter[2...]) : delimiter) + Array("--\r\n".utf8)
    }

    /// The byte count of the whole body, when every part's length is known.
    var length: Int64? {
        var total = Int64(bytes.count + closingDelimiter.count)
        for segment in segments {
            switch segment {
            case .memory: continue
            case .file(_, let length, _, _, _): total += length
            case .stream(let body, _, _):
                guard let length = body.length else { return nil }
                total += length
            }
        }
        return total
    }

    /// Whether the body can be read more than once (no stream parts).
    var isReplayable: Bool {
        segments.allSatisfy { segment in
            if case .stream = segment { return false }
            return true
        }
    }
}
