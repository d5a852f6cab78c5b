extension MultipartFormData {
    /// Reads each file part once, looking for the boundary, so that a
    /// caller-chosen boundary that occurs in a file is reported before
    /// anything is sent (`uploader --boundary` does this).
    ///
    /// Random boundaries need no check: 2^-384 odds of a clash. Stream parts
    /// cannot be read ahead; their content is still scanned while it is sent.
    /// Costs one sequential read of every file part, one 1 MiB buffer.
    ///
    /// - Throws: ``MultipartError/Code/boundaryInContent`` naming the part and
    ///   file, or a ``RequestBodyError`` if a file cannot be read.
    public func checkFilesForBoundary() throws {
        guard boundary.isCallerChosen else { return }
        let bufferSize = 1 << 20
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: bufferSize, alignment: 16)
        defer { buffer.deallocate() }
        var scanner = BoundaryScanner(pattern: boundary.bytes)
        for case .file(let path, let length, let partName, _) in segments {
            scanner.reset()
            let reader = try FileReader(path: path, expectedLength: length)
            while true {
                let count = try reader.read(into: buffer)
                if count == 0 { break }
                if scanner.scan(UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
                    throw MultipartError.boundaryInContent(part: partName, file: path, boundary: boundary.value)
                }
            }
        }
    }
}
