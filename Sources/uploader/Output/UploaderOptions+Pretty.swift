import UploaderItems

/// Which uploads `--pretty` applies to.
extension UploaderOptions {
    /// Refuses an explicit `--pretty` for the uploads that write the
    /// server's final answer as it came (`--resumable`, `--tus`, `s3://`,
    /// `--presigned-post`): accepted there, it would be an option silently
    /// ignored.
    func checkPrettyOption(isObjectStorage: Bool) throws(InputError) {
        guard let pretty else { return }
        let kind: String? = isObjectStorage ? "s3://" : presignedPost != nil ? "--presigned-post" : resumable ? "--resumable" : tus ? "--tus" : nil
        if let kind {
            throw InputError(.conflictingInput, "--pretty applies to plain requests; \(kind) writes the server's final answer as it came, so drop --pretty=\(pretty.rawValue)")
        }
    }
}
