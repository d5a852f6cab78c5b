import HTTPTypes

/// Reads `Upload-Offset`, the bytes a server holds, as both protocols send it:
/// a non-negative decimal integer (a structured-field integer in the draft).
enum UploadOffset {
    /// The offset in `head`, checked against the body's length.
    ///
    /// - Throws: ``ResumableUploadError`` (``ResumableUploadError/Code/invalidResponse``)
    ///   when the field is missing, not a number, or past the end of the body.
    static func read(from head: HTTPResponse, length: Int64) throws(ResumableUploadError) -> Int64 {
        guard let text = head.headerFields[.uploadOffset] else {
            throw .invalidResponse("\(head.status.code) with no Upload-Offset")
        }
        guard text.utf8.count <= 19, !text.isEmpty, text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
              let offset = Int64(text)
        else {
            throw .invalidResponse("Upload-Offset \(text.debugDescription) is not a non-negative integer")
        }
        guard offset <= length else {
            throw .invalidResponse("Upload-Offset \(offset) is past the end of the \(length)-byte body")
        }
        return offset
    }

    /// The offset a `2xx` to a request that sent the bytes `start..<end`
    /// reports, which must be exactly `end`: both protocols define the new
    /// offset as the old one plus the bytes the request carried.
    ///
    /// - Throws: ``ResumableUploadError`` (``ResumableUploadError/Code/invalidResponse``)
    ///   when the field cannot be read or names another offset.
    static func confirmed(by head: HTTPResponse, start: Int64, end: Int64, length: Int64) throws(ResumableUploadError) -> Int64 {
        let offset = try read(from: head, length: length)
        guard offset == end else {
            throw .invalidResponse("\(head.status.code) to the \(end - start) bytes sent at offset \(start) reports Upload-Offset \(offset), not \(end)")
        }
        return offset
    }
}
