import HTTPBody
import HTTPTypes
import RequestBuilder
import ResumableUploads
import SystemPackage
import UploaderItems

extension TusUpload {
    /// The tus upload of the command's one file item: its type and
    /// filename, the text fields as metadata, the headers and query items
    /// as given (`request` is the items' request, which holds them).
    init(items request: PreparedRequest, invocation: Invocation, chunkSize: Int64?, retry: RetryMiddleware) throws {
        var file: (name: String, source: RequestItem.FileSource)?
        var metadata: [(key: String, value: String)] = []
        for item in invocation.items {
            switch item {
            case .file(let name, let source):
                guard file == nil else {
                    throw InputError(.conflictingInput, "--tus uploads exactly one file; '\(name.echoed)@\(source.path.echoed)' is a second")
                }
                guard !source.isStandardInput else {
                    throw InputError(.conflictingInput, "'\(name.echoed)@-': --tus cannot resume standard input; give a file")
                }
                file = (name, source)
            case .field(let name, let value), .textPart(let name, let value, _, _):
                metadata.append((name, value))
            case .rawJSON(let name, _):
                throw InputError(.conflictingInput, "'\(name.echoed):=…': --tus sends text fields as Upload-Metadata; raw JSON has no place there")
            case .header, .query, .fromFile:  // .fromFile: never here, Invocation reads it
                continue
            }
        }
        guard let file else {
            throw InputError(.conflictingInput, "--tus uploads one file item (name@path); none was given")
        }
        // The path as the argument's bytes: a name that is not UTF-8 is
        // found as it is, as for a multipart part (a String path would not).
        let path = FilePath(argument: file.source.path)
        let body = try RequestBody.file(atPath: path, contentType: file.source.type.flatMap(MediaType.init))
        let filename = file.source.filename ?? path.lastComponent?.string ?? ""
        let fileFields = [("filename", filename), ("filetype", body.contentType?.description ?? "application/octet-stream")]
        metadata.removeAll { pair in fileFields.contains { $0.0 == pair.key } }
        guard let url = request.url else {
            throw InputError(.invalidURL, "the tus creation URL cannot be read back from the request")
        }
        // The items' headers as sent; not what described the multipart body
        // the request was assembled with, nor the Host line (from the URL).
        var fields = HTTPFields()
        let described: Set<String> = ["host", "content-type", "content-length", "content-encoding", "transfer-encoding"]
        for field in request.head.headerFields where !described.contains(field.name.canonicalName) {
            fields.append(field)
        }
        try self.init(
            creationURL: url, body: body, metadata: fileFields.map { (key: $0.0, value: $0.1) } + metadata,
            headerFields: fields, chunkSize: chunkSize ?? 8 * 1024 * 1024, retry: retry
        )
        timeout = request.timeout
    }
}
