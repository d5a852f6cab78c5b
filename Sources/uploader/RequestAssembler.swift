import Foundation
import RequestBuilder
import SystemPackage
import UploaderItems

/// Turns what the command line asks for into the request to send, checking
/// every input on the way: a bad item fails here, before any connection.
struct RequestAssembler {
    /// How the fields and files become a body.
    enum BodyKind { case json, form, multipart }

    var invocation: Invocation
    /// The body kind chosen by `--json`, `--form` or `--multipart`, if any.
    var explicitKind: BodyKind?
    /// `--data`: `@path`, `-` or literal text.
    var data: String?
    var gzip: Bool
    var boundary: String?
    var timeout: Double?

    /// The headers every request carries unless an item replaces or removes them.
    static let defaultHeaders: [(String, String)] = [("User-Agent", "uploader/0.1.0"), ("Accept", "*/*")]

    func prepare() throws(InputError) -> PreparedRequest {
        let url = try urlWithQuery()
        var body = try makeBody()
        if gzip { body = body?.gzipped() }
        let method = invocation.method ?? (body == nil ? .get : .post)
        var head = HTTPRequest(method: method, url: url)
        head.headerFields = try headerFields()
        return PreparedRequest(
            head: head,
            body: body,
            // Exact to the nanosecond (0.0001 s stays 0.0001 s); validate()
            // keeps the value within 1,000,000 s, so this cannot overflow.
            timeout: timeout.map { .nanoseconds(Int64(($0 * 1e9).rounded())) },
            acceptableStatus: .any
        )
    }

    // MARK: URL and headers

    private func urlWithQuery() throws(InputError) -> URL {
        let pairs = invocation.items.compactMap { item -> (String, String)? in
            if case .query(let name, let value) = item { return (name, value) } else { return nil }
        }
        guard !pairs.isEmpty else { return invocation.url }
        return invocation.url.appendingEncodedQuery(URLEncodedFormEncoder().encode(pairs))
    }

    private func headerFields() throws(InputError) -> HTTPFields {
        var defaults = Self.defaultHeaders
        var chosen: [(HTTPField.Name, String)] = []
        for case .header(let name, let value) in invocation.items {
            guard let fieldName = HTTPField.Name(name) else {
                throw InputError("header '\(name.echoed)': not a valid header name (letters, digits and !#$%&'*+-.^_`|~ only)")
            }
            defaults.removeAll { HTTPField.Name($0.0) == fieldName }
            if value.isEmpty {
                chosen.removeAll { $0.0 == fieldName }
                continue
            }
            guard HTTPField.isValidValue(value) else {
                throw InputError("header '\(name.echoed)': the value has a line break, NUL or other character a header cannot carry")
            }
            chosen.append((fieldName, value))
        }
        // One Host line, the item's, in --dry-run, -v and on the wire alike:
        // two would make servers answer 400 (RFC 9112, section 3.2), and front
        // ends that disagree on which one wins are a request-smuggling risk.
        let hosts = chosen.filter { $0.0.canonicalName == "host" }
        if hosts.count > 1 {
            throw InputError("'Host:\(hosts[0].1.echoed)' and 'Host:\(hosts[1].1.echoed)': a request has one Host header; give one Host item")
        }
        // Userinfo in the URL is sent as Basic credentials, as curl and HTTPie
        // do, unless an Authorization item says otherwise.
        if let credentials = invocation.credentials, !chosen.contains(where: { $0.0 == .authorization }) {
            chosen.insert((.authorization, "Basic " + Data(credentials.utf8).base64EncodedString()), at: 0)
        }
        var fields = HTTPFields()
        // The Host item goes first, where the default Host line would be.
        if let host = hosts.first { fields.append(HTTPField(name: host.0, value: host.1)) }
        chosen.removeAll { $0.0.canonicalName == "host" }
        for (name, value) in defaults {
            if let name = HTTPField.Name(name) { fields.append(HTTPField(name: name, value: value)) }
        }
        for (name, value) in chosen { fields.append(HTTPField(name: name, value: value)) }
        return fields
    }

    // MARK: Body

    private var hasContentItems: Bool {
        invocation.items.contains { item in
            switch item {
            case .field, .rawJSON, .file: true
            case .header, .query: false
            }
        }
    }

    private var hasFiles: Bool {
        invocation.items.contains { if case .file = $0 { true } else { false } }
    }

    private func makeBody() throws(InputError) -> RequestBody? {
        try checkStandardInputIsReadOnce()
        if let data {
            guard !hasContentItems else {
                throw InputError("--data sends a raw body and cannot be combined with field or file items")
            }
            guard explicitKind == nil else {
                throw InputError("--data sends a raw body; drop --json, --form or --multipart")
            }
            return try rawBody(data)
        }
        let kind: BodyKind
        switch explicitKind {
        case .form?:
            if let file = firstFileItemText { throw InputError("\(file): --form cannot carry files; use --multipart") }
            if invocation.hasFormParts { throw InputError("-F parts are multipart/form-data, as in curl; drop --form or write the fields as name=value items") }
            kind = .form
        case .json?:
            if let file = firstFileItemText { throw InputError("\(file): a JSON body cannot carry files; use --multipart") }
            if invocation.hasFormParts { throw InputError("-F parts are multipart/form-data, as in curl; drop --json or write the fields as name=value items") }
            kind = .json
        case .multipart?:
            kind = .multipart
        case nil:
            guard hasContentItems else { return nil }
            // Any -F makes the body multipart, as in curl, even for text alone.
            kind = hasFiles || invocation.hasFormParts ? .multipart : .json
        }
        switch kind {
        case .json: return try jsonBody()
        case .form: return try formBody()
        case .multipart: return try multipartBody()
        }
    }

    /// Standard input can be read once: by one `name@-` item or by `--data -`.
    private func checkStandardInputIsReadOnce() throws(InputError) {
        var readers = invocation.items.compactMap { item -> String? in
            guard case .file(let name, let source) = item, source.isStandardInput else { return nil }
            return "'\(name.echoed)@-'"
        }
        if data == "-" { readers.append("--data -") }
        guard readers.count <= 1 else {
            throw InputError("\(readers[0]) and \(readers[1]) both read standard input, which can be read only once")
        }
    }

    private var firstFileItemText: String? {
        for case .file(let name, let source) in invocation.items { return "'\("\(name)@\(source.path)".echoed)'" }
        return nil
    }

    private func jsonBody() throws(InputError) -> RequestBody {
        var object = JSONObject()
        for item in invocation.items {
            switch item {
            case .field(let name, let value):
                object[name] = .string(value)
            case .rawJSON(let name, let json):
                object[name] = .raw(try rawJSON(name: name, json: json))
            default:
                continue
            }
        }
        return .json(object)
    }

    private func formBody() throws(InputError) -> RequestBody {
        var pairs: [(String, String)] = []
        for item in invocation.items {
            switch item {
            case .field(let name, let value):
                pairs.append((name, value))
            case .rawJSON(let name, let json):
                throw InputError("'\("\(name):=\(json)".echoed)': raw JSON values need --json or --multipart, not --form")
            default:
                continue
            }
        }
        return .form(pairs)
    }

    private func multipartBody() throws(InputError) -> RequestBody {
        var form: MultipartFormData
        if let boundary {
            do {
                form = MultipartFormData(boundary: try .constant(boundary))
            } catch {
                throw InputError("--boundary: \(error.description)")
            }
        } else {
            form = MultipartFormData()
        }
        for item in invocation.items {
            switch item {
            case .field(let name, let value):
                form.append(value, name: name)
            case .rawJSON(let name, let json):
                form.append(Array(try rawJSON(name: name, json: json).text.utf8), name: name, contentType: .json)
            case .file(let name, let source):
                try appendFile(source, name: name, to: &form)
            case .header, .query:
                continue
            }
        }
        do {
            try form.checkFilesForBoundary()
            return try .multipart(form)
        } catch {
            throw InputError("\(error)")
        }
    }

    private func appendFile(_ source: RequestItem.FileSource, name: String, to form: inout MultipartFormData) throws(InputError) {
        let item = "'\("\(name)@\(source.path)".echoed)'"
        var type: MediaType?
        if let declared = source.type {
            guard let parsed = MediaType(declared) else {
                throw InputError("\(item): '\(declared.echoed)' is not a media type (expected type/subtype, such as image/png)")
            }
            type = parsed
        }
        if source.isStandardInput {
            form.append(
                stream: StandardInput(), length: nil, name: name,
                filename: source.filename ?? "-", contentType: type ?? .octetStream
            )
            return
        }
        do {
            try form.appendFile(atPath: FilePath(argument: source.path), name: name, filename: source.filename, contentType: type)
        } catch {
            throw InputError("\(item): \(error.description)")
        }
    }

    private func rawJSON(name: String, json: String) throws(InputError) -> RawJSON {
        do {
            return try RawJSON(validating: json)
        } catch {
            throw InputError("'\("\(name):=\(json)".echoed)': \(error.description)")
        }
    }

    private func rawBody(_ data: String) throws(InputError) -> RequestBody {
        if data == "-" {
            return .stream(StandardInput(), contentType: .octetStream)
        }
        if data.hasPrefix("@") {
            let path = String(data.dropFirst())
            do {
                return try .file(atPath: FilePath(argument: path))
            } catch {
                throw InputError("--data @\(path.echoed): \(error.description)")
            }
        }
        let bytes = Array(data.utf8)
        let type = StandardMediaTypeSniffer.standard.mediaType(of: MediaTypeSample(prefix: bytes)) ?? .plainText
        return .bytes(bytes, contentType: type)
    }
}

extension FilePath {
    /// The path a command-line argument names, byte for byte (see ``RawArgument``).
    init(argument: String) {
        self.init(platformString: RawArgument.bytes(of: argument).map { CChar(bitPattern: $0) } + [0])
    }
}
