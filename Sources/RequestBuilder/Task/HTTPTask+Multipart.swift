extension HTTPTask {
    /// A `multipart/form-data` body (RFC 7578) streamed from `form`'s parts;
    /// file parts are read from disk as the body is sent.
    public static func multipart(_ form: MultipartFormData) -> HTTPTask {
        HTTPTask(body: .multipart(form))
    }

    /// A `multipart/form-data` body and query parameters: the composite multipart task.
    public static func multipart(_ form: MultipartFormData, query: [(String, String)], encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask.multipart(form).adding(.query(query, encoder: encoder))
    }

    /// A `multipart/form-data` body and query parameters from a value's properties.
    public static func multipart(_ form: MultipartFormData, query: some Encodable & Sendable, encoder: URLEncodedFormEncoder = URLEncodedFormEncoder()) -> HTTPTask {
        HTTPTask.multipart(form).adding(.query(query, encoder: encoder))
    }

    /// A `multipart/form-data` body whose parts `build` appends; an error it
    /// throws (a missing file) fails the request's build as ``RequestError``.
    ///
    /// - Parameter boundary: The boundary; random by default. Fix it with
    ///   `.constant(_:)` for reproducible output in tests.
    public static func multipart(
        boundary: MultipartBoundary = .random(),
        _ build: (inout MultipartFormData) throws -> Void
    ) -> HTTPTask {
        var form = MultipartFormData(boundary: boundary)
        do {
            try build(&form)
        } catch let error as RequestError {
            return HTTPTask(body: .failed(error))
        } catch {
            return HTTPTask(body: .failed(.invalidRequest("Cannot build the multipart body: \(error)", underlying: error)))
        }
        return .multipart(form)
    }
}
