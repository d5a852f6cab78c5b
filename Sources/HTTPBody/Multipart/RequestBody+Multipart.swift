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
            guard case .file(let location, let length, _, _) = segment else { return nil }
            return BodyFile(location: location, length: length)
        }
        return body
    }
}
