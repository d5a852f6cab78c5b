public import HTTPBody

extension HTTPTask {
    /// A `multipart/form-data` body (RFC 7578) streamed from `form`'s parts;
    /// file parts are read from disk as the body is sent.
    public static func multipart(_ form: MultipartFormData) -> HTTPTask {
        HTTPTask { try encoding("the multipart body") { try RequestBody.multipart(form) } }
    }

    /// A `multipart/form-data` body whose parts `build` appends when the
    /// request is built, like every other body: a file is looked at then,
    /// not when the task is made, and an error `build` throws (a missing
    /// file) fails the build as ``RequestError``.
    ///
    /// - Parameters:
    ///   - boundary: The boundary; random by default. Fix it with
    ///     `.constant(_:)` for reproducible output in tests.
    ///   - build: Appends the parts to the form, when the request is built.
    public static func multipart(
        boundary: MultipartBoundary = .random(),
        _ build: @escaping @Sendable (inout MultipartFormData) throws -> Void
    ) -> HTTPTask {
        HTTPTask {
            var form = MultipartFormData(boundary: boundary)
            do {
                try build(&form)
            } catch let error as RequestError {
                throw error
            } catch {
                throw RequestError.invalidRequest("Cannot build the multipart body: \(RequestError.describeEncodingFailure(error))", underlying: error)
            }
            return try encoding("the multipart body") { try RequestBody.multipart(form) }
        }
    }
}
