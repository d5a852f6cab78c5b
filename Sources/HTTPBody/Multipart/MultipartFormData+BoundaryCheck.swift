extension MultipartFormData {
    /// Reads every file part once, front to back, and returns the form's
    /// first problem, a caller-chosen boundary found in a file included, so
    /// it can be reported before anything is sent (the `uploader --boundary`
    /// contract); `nil` when there is none.
    ///
    /// A random boundary needs no check (odds of a clash are negligible), so
    /// the files are read only when the boundary is caller-chosen. Sending
    /// scans files anyway when the boundary is caller-chosen; this
    /// only moves the failure before the first byte goes out, at the cost of
    /// reading each file twice (a large one on several cores at once:
    /// ``FileBoundaryCheck``). Stream parts cannot be read ahead and are not
    /// checked here. Blocks the calling thread while it reads; memory is one
    /// 256 KiB buffer a core.
    ///
    /// - Throws: ``RequestBodyError`` naming the part when a file cannot be
    ///   read or changed size.
    package func problemIncludingFiles() throws(RequestBodyError) -> MultipartError? {
        if let problem { return problem }
        guard boundary.isCallerChosen else { return nil }
        for segment in segments {
            guard case .file(let location, let length, let name, _, _) = segment else { continue }
            let found: Bool
            do throws(RequestBodyError) {
                found = try FileBoundaryCheck.fileContains(boundarySearch, at: location, length: length)
            } catch {
                throw error.naming(part: name)
            }
            if found { return .boundaryInContent(part: name, file: location.description, boundary: boundary.value) }
        }
        return nil
    }
}
