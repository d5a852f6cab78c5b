/// One stretch of a multipart body.
enum MultipartSegment: Sendable {
    /// `bytes[start..<end]` of the form.
    case memory(start: Int, end: Int, isCompressible: Bool)
    /// A file's contents, read while sending; `held` is the file as it was
    /// opened and measured, for the first read of the body to send.
    case file(FileLocation, length: Int64, partName: String, isCompressible: Bool, held: HeldFile?)
    /// A stream's contents, read once while sending. Boxed: a `RequestBody`
    /// is several times the size of the other cases, and every segment of
    /// the form's array would pay for it (two segments a file).
    indirect case stream(RequestBody, partName: String, isCompressible: Bool)

    var isMemory: Bool {
        if case .memory = self { return true }
        return false
    }

    var memoryEnd: Int? {
        if case .memory(_, let end, _) = self { return end }
        return nil
    }

    var isCompressible: Bool {
        switch self {
        case .memory(_, _, let flag), .file(_, _, _, let flag, _), .stream(_, _, let flag): flag
        }
    }
}
