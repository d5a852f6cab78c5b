extension RequestBody {
    /// A `multipart/form-data` body (RFC 7578) with
    /// `Content-Type: multipart/form-data; boundary=…`, streamed part by part.
    ///
    /// The length is known, and sent as `Content-Length`, unless a stream part
    /// has no declared length. The body is replayable unless it has stream parts.
    /// Peak memory while sending is one chunk beyond the form's in-memory parts.
    ///
    /// - Throws: The first ``MultipartError`` found while the parts were
    ///   appended: a header that would break the framing, or the boundary
    ///   inside an in-memory part.
    public static func multipart(_ form: MultipartFormData) throws(MultipartError) -> RequestBody {
        try form.validate()
        var form = form
        form.sealMemory(isCompressible: true)
        let sealed = form
        var body = RequestBody(
            contentType: .multipartFormData(boundary: form.boundary.value),
            length: form.length,
            isReplayable: form.isReplayable
        ) {
            MultipartChunkSource(form: sealed)
        }
        body.filesRead = form.segments.compactMap { segment in
            guard case .file(let location, let length, _, _, _) = segment else { return nil }
            return BodyFile(location: location, length: length)
        }
        body.fileEnds = sealed.fileEnds
        return body
    }
}

extension MultipartFormData {
    /// Where each file part's content ends in the body (``RequestBody/fileEnds``);
    /// empty when a stream of unknown length comes before a file.
    fileprivate var fileEnds: [Int64] {
        var ends: [Int64] = []
        var offset: Int64 = 0
        for segment in segments {
            switch segment {
            case .memory(let start, let end, _):
                offset += Int64(end - start)
            case .file(_, let length, _, _, _):
                offset += length
                ends.append(offset)
            case .stream(let body, _, _):
                guard let length = body.length else { return [] }
                offset += length
            }
        }
        return ends
    }
}
