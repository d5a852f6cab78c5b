import UploaderItems

/// The positionals of an `s3://` command, checked one way for both of its
/// kinds: the `s3://` target, then the file (`uploader s3://BUCKET/KEY
/// FILE`) or, with `--recursive`, the directory to send, then any header
/// items (`Content-Type:text/x-foo`, `x-amz-meta-owner:ada`), which go
/// with every object as `-H` does. The messages name the kind and its usage.
struct ObjectCommandPositionals {
    /// The `s3://` text as typed.
    let target: String
    /// The file or directory as typed, `@` and all.
    private let source: String
    private let isRecursive: Bool
    /// The header items, each as `-H` takes it: `Name: value`.
    let headers: [String]

    /// The positionals of `commandLine` (a `-F` part is refused for both
    /// kinds by ``OptionRule/table``).
    init(commandLine: CommandLineSplit, isRecursive: Bool) throws(InputError) {
        self.isRecursive = isRecursive
        let positionals = commandLine.entries.compactMap { entry -> String? in
            if case .positional(let text) = entry { return text }
            return nil
        }
        let usage = isRecursive ? "uploader s3://BUCKET/PREFIX/ DIR --recursive [Header:value ...]" : "uploader s3://BUCKET/KEY FILE [Header:value ...]"
        guard positionals.count >= 2 else {
            throw InputError(.malformedItem, "no \(isRecursive ? "directory" : "file") given; usage: \(usage)")
        }
        var headers: [String] = []
        for text in positionals.dropFirst(2) {
            guard case .header(let name, let value) = try? RequestItem(parsing: text) else {
                throw InputError(.malformedItem, "'\(text.echoed)': \(isRecursive ? "a recursive s3:// upload sends one directory" : "an s3:// upload sends one file"), then header items (Name:value); usage: \(usage)")
            }
            guard !value.isEmpty else {
                throw InputError(.malformedItem, "'\(text.echoed)': an empty header item removes a default header, and an s3:// upload adds none; drop it")
            }
            headers.append("\(name): \(value)")
        }
        target = positionals[0]
        source = positionals[1]
        self.headers = headers
    }

    /// The file or directory's path, without the `@` some write before it
    /// (as before a file part's); standard input (`-`) is refused, as an
    /// object needs its length before it is sent.
    func path() throws(InputError) -> String {
        var path = source
        if path.hasPrefix("@") { path.removeFirst() }
        guard path != "-" else {
            throw InputError(.unusableFile, isRecursive
                ? "standard input cannot be uploaded with --recursive; give a directory"
                : "standard input cannot be uploaded to s3://: an object needs its length before it is sent; give a file")
        }
        return path
    }
}
