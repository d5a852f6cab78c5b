extension MultipartFormData {
    /// Reads every file part once, front to back, and fails if the boundary
    /// occurs in one, so a caller-chosen boundary can be checked before
    /// anything is sent (the `uploader --boundary` contract).
    ///
    /// A random boundary needs no check (odds of a clash are negligible), so
    /// the files are read only when the boundary is caller-chosen. Sending
    /// scans files anyway when the boundary is caller-chosen; this
    /// only moves the failure before the first byte goes out, at the cost of
    /// reading each file twice. Stream parts cannot be read ahead and are not
    /// checked here. Blocks the calling thread while it reads; memory is one
    /// 256 KiB buffer.
    ///
    /// - Throws: ``MultipartError/Code/boundaryInContent`` naming the part and
    ///   the file, or a ``RequestBodyError`` naming the part when a file cannot
    ///   be read or changed size.
    public func checkFilesForBoundary() throws {
        try validate()
        guard boundary.isCallerChosen else { return }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: RequestBody.defaultChunkSize, alignment: 1)
        defer { buffer.deallocate() }
        for segment in segments {
            guard case .file(let location, let length, let name, _) = segment else { continue }
            var scanner = BoundaryScanner(pattern: boundary.bytes)
            var found = false
            do throws(RequestBodyError) {
                let reader = try FileReader(location, expectedLength: length)
                while !found {
                    let count = try reader.read(into: buffer)
                    if count == 0 { break }  // the end, checked for growth
                    found = scanner.scan(UnsafeRawBufferPointer(rebasing: buffer[..<count]))
                }
            } catch {
                throw error.naming(part: name)
            }
            if found { throw MultipartError.boundaryInContent(part: name, file: location.description, boundary: boundary.value) }
        }
    }
}
