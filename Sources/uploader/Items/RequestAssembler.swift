import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import SystemPackage
import UploaderItems

/// Turns what the command line asks for into calls on the library's
/// ``HTTPRequestBuilder``: the uploader builds its requests through the same
/// funnel as any program using the library, so a bad header, path or file is
/// refused by the same checks, and `--dry-run` prints the head that is sent.
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
    /// A saved upload's random boundary, used when `--boundary` is not given.
    var resumedBoundary: String? = nil
    /// ``UploaderOptions/requestTimeout``.
    var timeout: Duration?
    /// `-r, --recursive`: a directory given as a file part sends one part
    /// per file under it (``DirectoryFiles``).
    var recursive = false
    /// `Authorization` from `-a` or `--bearer`: over the URL's credentials.
    var authorization: String? = nil
    /// `user:password` from `--netrc`: used when the URL carries none.
    var netrcCredentials: String? = nil
    /// `--ignore-stdin`: standard input is never the body.
    var ignoresStandardInput = false
    /// `--chunked`: a body or part from standard input is streamed as it
    /// comes, without a length, instead of read first.
    var streamsStandardInput = false
    /// `--compressed`: `Accept-Encoding` joins the default headers.
    var asksForCompression = false

    /// The headers every request carries unless an item replaces or removes them.
    static let defaultHeaders: [(String, String)] = [("User-Agent", "uploader/0.1.0"), ("Accept", "*/*")]

    /// Builds the request; nothing is sent.
    ///
    /// - Throws: ``InputError`` naming the item, option or file at fault.
    func prepare() throws(InputError) -> PreparedRequest {
        let body = try bodyTask()
        let method = invocation.method ?? (body == nil ? .get : .post)
        var builder = HTTPRequestBuilder(method, try urlWithQueryItems()).acceptingStatus(.any)
        builder = builder.headers(try headerItems())  // one copy of the builder, not one per field
        if let body { builder = builder.task(body) }
        if gzip { builder = builder.gzip() }
        if let timeout { builder = builder.timeout(timeout) }
        // `Expect:` (empty) turns curl's Expect: 100-continue off, as -H 'Expect:' does in curl.
        if lastItemIsEmpty(named: "Expect") { builder = builder.waitingForContinue(false) }
        do {
            return try builder.build()
        } catch {
            // An item's own message (a missing file part) comes back as it was thrown.
            if let itemError = error.underlying as? InputError { throw itemError }
            throw InputError(error.underlying is RequestBodyError ? .unusableFile : .invalidRequest, error.description)
        }
    }

    // MARK: URL and headers

    private var queryPairs: [(String, String)] {
        invocation.items.compactMap { item in
            if case .query(let name, let value) = item { (name, value) } else { nil }
        }
    }

    /// The URL with the `name==value` items appended to its query, encoded
    /// here from the bytes typed (``ArgumentPercentEncoding``) exactly as the
    /// library's query encoder would encode UTF-8, so a byte that is not
    /// UTF-8 goes out as `%FF`.
    private func urlWithQueryItems() throws(InputError) -> URL {
        let pairs = queryPairs
        guard !pairs.isEmpty else { return invocation.url }
        let added = String(decoding: ArgumentPercentEncoding.pairs(pairs), as: UTF8.self)
        guard var components = URLComponents(url: invocation.url, resolvingAgainstBaseURL: false) else { return invocation.url }
        let existing = components.percentEncodedQuery ?? ""
        components.percentEncodedQuery = existing.isEmpty ? added : existing + "&" + added
        guard let url = components.url else {
            throw InputError(.invalidURL, "the query items do not make a valid URL")
        }
        return url
    }

    /// The header fields in the order they are sent: a `Host` item first,
    /// where the Host line stands, then the defaults an item did not replace
    /// or remove, the URL's credentials, and the items. An item with an
    /// empty value (`Accept:`) removes the header, as in HTTPie.
    private func headerItems() throws(InputError) -> [(String, String)] {
        // Linear in the items (a removal never scans the list): an item with
        // an empty value removes the ones of its name before it, so a field
        // is kept when no removal of its name comes later.
        var named: [(key: ExactName, name: String, value: String)] = []
        var lastRemoval: [ExactName: Int] = [:]
        for (index, item) in invocation.items.enumerated() {
            guard case .header(let name, let value) = item else { continue }
            // HTTP allows bytes 0x80-0xFF in a value only as obsolete text
            // (RFC 9110, section 5.5), and the transport carries header
            // values as Unicode text: refused, rather than sent changed.
            if RawArgument.hasEscapedBytes(name) || RawArgument.hasEscapedBytes(value) {
                throw InputError(.malformedItem, "'\(invocation.text(ofItemAt: index, or: "\(name):\(value)").echoed)': a header's name and value must be UTF-8")
            }
            let key = Self.key(name)
            if value.isEmpty { lastRemoval[key] = named.count }
            named.append((key, name, value))
        }
        let defaults = (Self.defaultHeaders + (asksForCompression ? [CompressedResponse.acceptEncoding] : [])).filter { field in !named.contains { $0.key == Self.key(field.0) } }
        var chosen: [(String, String)] = []
        chosen.reserveCapacity(named.count)
        for (index, field) in named.enumerated() where !field.value.isEmpty && index >= lastRemoval[field.key, default: -1] {
            chosen.append((field.name, field.value))
        }
        // One Host line, the item's, in --dry-run, -v and on the wire alike.
        let hosts = chosen.filter { Self.sameName($0.0, "Host") }
        if hosts.count > 1 {
            throw InputError(.conflictingInput, "'Host:\(hosts[0].1.echoed)' and 'Host:\(hosts[1].1.echoed)': a request has one Host header; give one Host item")
        }
        chosen.removeAll { Self.sameName($0.0, "Host") }
        // -a or --bearer, else userinfo in the URL, else --netrc's entry, is
        // sent as curl and HTTPie do, unless an Authorization item says otherwise.
        if !chosen.contains(where: { Self.sameName($0.0, "Authorization") }) {
            if let authorization {
                chosen.insert(("Authorization", authorization), at: 0)
            } else if let credentials = invocation.credentials ?? netrcCredentials {
                chosen.insert(("Authorization", "Basic " + Data(credentials.utf8).base64EncodedString()), at: 0)
            }
        }
        return hosts + defaults + chosen
    }

    /// Header names compare without regard to ASCII case (RFC 9110, section
    /// 5.1) and otherwise as written, scalar for scalar (``ExactName``).
    private static func sameName(_ first: String, _ second: String) -> Bool {
        key(first) == key(second)
    }

    /// What ``sameName(_:_:)`` compares, for looking names up.
    private static func key(_ name: String) -> ExactName {
        ExactName(name.lowercased())
    }

    // MARK: Body

    private var hasContentItems: Bool {
        invocation.items.contains { item in
            switch item {
            case .field, .rawJSON, .file, .textPart: true
            case .header, .query: false
            case .fromFile: false  // never here: Invocation reads these into plain items
            }
        }
    }

    private var hasFiles: Bool {
        invocation.items.contains { if case .file = $0 { true } else { false } }
    }

    /// The body as a task for the builder, or `nil` for none.
    private func bodyTask() throws(InputError) -> HTTPTask? {
        try checkStandardInputIsReadOnce()
        if streamsStandardInput, !readsStandardInput {
            throw InputError(.conflictingInput, "--chunked applies to a body read from standard input (--data -, name@- or piped input); drop it")
        }
        if let data {
            guard !hasContentItems else {
                throw InputError(.conflictingInput, "--data sends a raw body and cannot be combined with field or file items")
            }
            return try rawBody(data)
        }
        let kind: BodyKind
        switch explicitKind {
        case .multipart? where takesPipedInput:
            throw InputError(.conflictingInput, "--multipart makes a body of items, and there are none: standard input would be the body; drop --multipart, or give items and --ignore-stdin")
        case .form?:
            if let file = firstFileItemText { throw InputError(.conflictingInput, "\(file): --form cannot carry files; use --multipart") }
            if invocation.hasFormParts { throw InputError(.conflictingInput, "-F parts are multipart/form-data, as in curl; drop --form or write the fields as name=value items") }
            kind = .form
        case .json? where takesPipedInput:
            return try pipedBody(declaring: .json)
        case .form? where takesPipedInput:
            return try pipedBody(declaring: .formURLEncoded)
        case .json?:
            if let file = firstFileItemText { throw InputError(.conflictingInput, "\(file): a JSON body cannot carry files; use --multipart") }
            if invocation.hasFormParts { throw InputError(.conflictingInput, "-F parts are multipart/form-data, as in curl; drop --json or write the fields as name=value items") }
            kind = .json
        case .multipart?:
            kind = .multipart
        case nil:
            guard hasContentItems else { return takesPipedInput ? try pipedBody(declaring: nil) : nil }
            // Any -F makes the body multipart, as in curl, even for text alone.
            kind = hasFiles || invocation.hasFormParts ? .multipart : .json
        }
        if removesContentType, kind == .multipart {
            throw InputError(.conflictingInput, "'Content-Type:': a multipart body cannot go without its Content-Type, which carries the boundary; remove the item (or send --json or --form)")
        }
        switch kind {
        case .json: return try jsonBody()
        case .form: return try formBody()
        case .multipart: return try multipartBody()
        }
    }

    /// Whether the last `Content-Type` item is empty (`Content-Type:`): as
    /// in HTTPie, a JSON, form or raw body then goes without a Content-Type
    /// (a multipart one cannot, and is refused). Never ignored: the item
    /// removes what the body would declare, as it removes a default header.
    private var removesContentType: Bool {
        lastItemIsEmpty(named: "Content-Type")
    }

    /// Whether the last header item named `name` has an empty value (`Name:`).
    private func lastItemIsEmpty(named name: String) -> Bool {
        var removes = false
        for case .header(let itemName, let value) in invocation.items where Self.sameName(itemName, name) {
            removes = value.isEmpty
        }
        return removes
    }

    /// `body` without its Content-Type when ``removesContentType`` says so.
    private func declaring(_ body: RequestBody) -> HTTPTask {
        var body = body
        if removesContentType { body.contentType = nil }
        return .body(body)
    }

    /// Whether the body is standard input's content, by HTTPie's rule: no
    /// field, file or `-F` item, no `--data`, no `--ignore-stdin`, and
    /// standard input a pipe or a file (never a terminal or `/dev/null`).
    var takesPipedInput: Bool {
        !ignoresStandardInput && data == nil && !hasContentItems && StandardInputContent.source == .piped
    }

    /// Whether anything reads standard input: a `name@-` item, `--data -`,
    /// or the body by HTTPie's rule (``takesPipedInput``).
    var readsStandardInput: Bool {
        data == "-" || takesPipedInput || invocation.items.contains { item in
            if case .file(_, let source) = item { source.isStandardInput } else { false }
        }
    }

    /// Standard input's content as the body, declared as `type` or, when
    /// `nil`, as what its first bytes are; `nil` (no body) when it is empty.
    private func pipedBody(declaring type: MediaType?) throws(InputError) -> HTTPTask? {
        guard !streamsStandardInput else {
            return declaring(.stream(StandardInput(), contentType: type ?? .octetStream))
        }
        let content = try StandardInputContent.readAll()
        guard !content.isEmpty else { return nil }
        let declared = type ?? StandardMediaTypeSniffer.standard.mediaType(of: MediaTypeSample(prefix: content.prefix)) ?? .octetStream
        return try body(from: content, declaring: declared)
    }

    /// `content` as a body with a length, declared as `type`.
    private func body(from content: StandardInputContent, declaring type: MediaType) throws(InputError) -> HTTPTask {
        switch content {
        case .bytes(let bytes):
            return declaring(.bytes(bytes, contentType: type))
        case .file(let path):
            do {
                return declaring(try .file(atPath: path, contentType: type))
            } catch {
                throw InputError(.unusableFile, "standard input, kept in a temporary file: \(error.description)")
            }
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
            throw InputError(.conflictingInput, "\(readers[0]) and \(readers[1]) both read standard input, which can be read only once")
        }
    }

    private var firstFileItemText: String? {
        for case .file(let name, let source) in invocation.items { return "'\("\(name)@\(source.path)".echoed)'" }
        return nil
    }

    private func jsonBody() throws(InputError) -> HTTPTask {
        var object = JSONObject()
        for (index, item) in invocation.items.enumerated() {
            switch item {
            case .field(let name, let value):
                try Self.checkJSONText(name: name, value: value, item: invocation.text(ofItemAt: index, or: "\(name)=\(value)"))
                object[name] = .string(value)
            case .rawJSON(let name, let json):
                let text = invocation.text(ofItemAt: index, or: "\(name):=\(json)")
                try Self.checkJSONText(name: name, value: json, item: text)
                object[name] = .raw(try Self.rawJSON(json, item: text))
            default:
                continue
            }
        }
        return declaring(.json(object))
    }

    /// JSON is Unicode text (RFC 8259, section 8.1): a name or value typed
    /// with bytes that are not UTF-8 has no JSON form, and sending the
    /// tool's stand-in scalars for them would change the data.
    private static func checkJSONText(name: String, value: String, item: String) throws(InputError) {
        guard RawArgument.hasEscapedBytes(name) || RawArgument.hasEscapedBytes(value) else { return }
        throw InputError(.malformedItem, "'\(item.echoed)': a JSON field's name and value must be UTF-8; send bytes that are not UTF-8 with --multipart or --form")
    }

    private func formBody() throws(InputError) -> HTTPTask {
        var pairs: [(String, String)] = []
        for (index, item) in invocation.items.enumerated() {
            switch item {
            case .field(let name, let value):
                pairs.append((name, value))
            case .rawJSON(let name, let json):
                throw InputError(.conflictingInput, "'\(invocation.text(ofItemAt: index, or: "\(name):=\(json)").echoed)': raw JSON values need --json or --multipart, not --form")
            default:
                continue
            }
        }
        // Encoded here from the bytes typed, as `.form(pairs)` encodes UTF-8:
        // a byte that is not UTF-8 goes out as `%FF`.
        return declaring(.bytes(ArgumentPercentEncoding.pairs(pairs), contentType: .formURLEncoded))
    }

    /// A multipart body whose parts are appended when the request is built,
    /// like every body the library makes: files are looked at then.
    private func multipartBody() throws(InputError) -> HTTPTask {
        var chosenBoundary = MultipartBoundary.random()
        if let boundary {
            do {
                chosenBoundary = try .constant(boundary)
            } catch {
                throw InputError(.conflictingInput, "--boundary: \(error.description)")
            }
        } else if let resumedBoundary {
            do {
                chosenBoundary = try .resuming(resumedBoundary)
            } catch {
                throw InputError(.unusableFile, "the resume state's boundary: \(error.description)")
            }
        }
        // Raw JSON is checked now, before any file is read, and sent as checked.
        var checkedJSON: [Int: RawJSON] = [:]
        for (index, item) in invocation.items.enumerated() {
            if case .rawJSON(let name, let json) = item {
                let text = invocation.text(ofItemAt: index, or: "\(name):=\(json)")
                try Self.checkJSONText(name: "", value: json, item: text)
                checkedJSON[index] = try Self.rawJSON(json, item: text)
            }
            try Self.checkPartLabels(of: item)
        }
        let items = invocation.items
        let recursive = recursive
        return .multipart(boundary: chosenBoundary) { [checkedJSON] form in
            let sniffedFiles = Self.sniffedFiles(of: items)
            form.reserveCapacity(forParts: items.count)
            for (index, item) in items.enumerated() {
                switch item {
                case .field(let name, let value) where RawArgument.hasEscapedBytes(value):
                    // Bytes that are not UTF-8 go as typed; not being UTF-8
                    // text, the part says it holds bytes.
                    form.append(RawArgument.bytes(of: value), name: name, contentType: .octetStream)
                case .field(let name, let value):
                    form.append(value, name: name)
                case .rawJSON(let name, _):
                    form.append(Array(checkedJSON[index]?.text.utf8 ?? "".utf8), name: name, contentType: .json)
                case .file(let name, let source):
                    try Self.appendFile(source, name: name, sniffed: sniffedFiles[index], recursive: recursive, streamsStandardInput: streamsStandardInput, to: &form)
                case .textPart(let name, let value, let type, let filename):
                    let item = "'\(name.echoed)=\(value.echoed)'"
                    form.append(RawArgument.bytes(of: value), name: name, filename: filename, contentType: try Self.mediaType(type, item: item))
                case .header, .query, .fromFile:
                    continue
                }
            }
            let problem: MultipartError?
            do throws(RequestBodyError) {
                problem = try form.problemIncludingFiles()
            } catch {
                throw InputError(.unusableFile, error.description)
            }
            if let problem { throw InputError(.conflictingInput, problem.description) }
        }
    }

    /// A part's name and `;filename=` go into its `Content-Disposition` as
    /// UTF-8 text (contract: non-ASCII names are sent as UTF-8), so bytes
    /// that are not UTF-8 there are refused rather than changed. (A file's
    /// own name, taken from its path, goes byte for byte.)
    private static func checkPartLabels(of item: RequestItem) throws(InputError) {
        let name: String
        let filename: String?
        let text: String
        switch item {
        case .field(let itemName, let value):
            (name, filename, text) = (itemName, nil, "\(itemName)=\(value)")
        case .rawJSON(let itemName, let json):
            (name, filename, text) = (itemName, nil, "\(itemName):=\(json)")
        case .textPart(let itemName, let value, _, let partFilename):
            (name, filename, text) = (itemName, partFilename, "\(itemName)=\(value)")
        case .file(let itemName, let source):
            (name, filename, text) = (itemName, source.filename, "\(itemName)@\(source.path)")
        case .header, .query, .fromFile:
            return
        }
        if RawArgument.hasEscapedBytes(name) {
            throw InputError(.malformedItem, "'\(text.echoed)': a multipart part's name must be UTF-8")
        }
        if let filename, RawArgument.hasEscapedBytes(filename) {
            throw InputError(.malformedItem, "'\(text.echoed)': a ;filename= value must be UTF-8 (a file's own name is sent byte for byte without it)")
        }
    }

    /// The items' files that declare no type, one for each item, opened,
    /// measured and sniffed on every core before the form is built
    /// (``MediaTypeSniffer/sniffFiles(at:lanes:)``) and kept open for their
    /// send; `nil` for any other item, and for a file that could not be
    /// read: appending it reports why.
    private static func sniffedFiles(of items: [RequestItem]) -> [SniffedFile?] {
        var locations: [FileLocation] = []
        for item in items {
            guard let path = sniffedPath(of: item) else { continue }
            locations.append(FileLocation(FilePath(argument: path)))
        }
        guard !locations.isEmpty else { return [SniffedFile?](repeating: nil, count: items.count) }
        let files = sniffedReleasingMagic(locations)
        // Every item a file to sniff: the answers are already in the items' order.
        if files.count == items.count { return files }
        var sniffed = [SniffedFile?](repeating: nil, count: items.count)
        var answers = files.makeIterator()
        for (index, item) in items.enumerated() where sniffedPath(of: item) != nil {
            sniffed[index] = answers.next() ?? nil
        }
        return sniffed
    }

    /// The path of a file item the batch sniff types: one that declares no
    /// type and is not standard input; `nil` for any other item.
    private static func sniffedPath(of item: RequestItem) -> String? {
        guard case .file(_, let source) = item, source.type == nil, !source.isStandardInput else { return nil }
        return source.path
    }

    /// `locations` sniffed on every core; then libmagic's database (up to
    /// 8 MB of pages once it has looked at bytes no signature names) is given
    /// back at once, so it is not resident while the form of these files is
    /// built, nor waits for the pool's idle delay.
    private static func sniffedReleasingMagic(_ locations: [FileLocation]) -> [SniffedFile?] {
        #if canImport(Glibc)
        if locations.count >= 1_000 {
            // The command line's arguments, freed once the items were parsed
            // from them (a `String` each), lie between other blocks of the
            // main thread's heap, which the sniffing lanes' threads do not
            // allocate from: glibc keeps such pages resident until asked.
            // Given back here, before the sniff's peak.
            glibcMallocTrim(0)
        }
        #endif
        let files = StandardMediaTypeSniffer().sniffFiles(at: locations, lanes: ProcessInfo.processInfo.activeProcessorCount)
        MagicDatabase.releaseSharedIdleHandles()
        return files
    }

    /// The files under a directory part's `directory`, sniffed on every
    /// core as the walk lists them; then libmagic's database is given back,
    /// as ``sniffedReleasingMagic(_:)`` gives it.
    private static func directoryFilesSniffed(
        under directory: String, item: String
    ) throws(InputError) -> (files: DirectoryFiles, sniffed: [SniffedFile?]) {
        let sniffer = StandardMediaTypeSniffer()
        let (files, sniffed) = try sniffer.sniffFiles(lanes: ProcessInfo.processInfo.activeProcessorCount) { listed throws(InputError) in
            try DirectoryFiles(under: directory, item: item) { paths in listed(paths.map(FileLocation.init(bytes:))) }
        }
        MagicDatabase.releaseSharedIdleHandles()
        // In the order of the files, which is not the order listed.
        return (files, files.listedPositions.map { sniffed[$0] })
    }

    private static func appendFile(
        _ source: RequestItem.FileSource, name: String, sniffed: SniffedFile?, recursive: Bool, streamsStandardInput: Bool,
        to form: inout MultipartFormData
    ) throws(InputError) {
        if let sniffed {
            // Opened as a regular file, measured and typed: appended as it is.
            form.appendFile(sniffed, name: name, filenameBytes: source.filename.map { Array($0.utf8) })
            return
        }
        let item = "'\("\(name)@\(source.path)".echoed)'"
        let type = try mediaType(source.type, item: item)
        if !source.isStandardInput, FileStatus.isDirectory(at: FileLocation(bytes: RawArgument.bytes(of: source.path))) == true {
            guard recursive else {
                throw InputError(.unusableFile, "\(item): \(source.path.echoed) is a directory; add -r (--recursive) to send each file under it as a part")
            }
            guard source.filename == nil else {
                throw InputError(.malformedItem, "\(item): ;filename= names one file, and a directory sends each file under its own path; drop it")
            }
            // Typed on every core first, as separate file items are.
            let (directory, sniffed) = type != nil
                ? (try DirectoryFiles(under: source.path, item: item), [])
                : try directoryFilesSniffed(under: source.path, item: item)
            let files = directory.files
            let paths = files.map { FilePath(platformString: $0.path.map { CChar(bitPattern: $0) } + [0]) }
            for (position, file) in files.enumerated() {
                if position < sniffed.count, let sniffedFile = sniffed[position] {
                    form.appendFile(sniffedFile, name: name, filenameBytes: file.filename)
                    continue
                }
                do {
                    try form.appendFile(atPath: paths[position], name: name, filenameBytes: file.filename, contentType: type)
                } catch {
                    throw InputError(.unusableFile, "\(item): \(error.description)")
                }
            }
            return
        }
        if source.isStandardInput {
            let filename = source.filename ?? "-"
            guard !streamsStandardInput else {
                form.append(stream: StandardInput(), length: nil, name: name, filename: filename, contentType: type ?? .octetStream)
                return
            }
            switch try StandardInputContent.readAll() {
            case .bytes(let bytes):
                form.append(bytes, name: name, filename: filename, contentType: type ?? .octetStream)
            case .file(let path):
                do {
                    try form.appendFile(atPath: path, name: name, filename: filename, contentType: type ?? .octetStream)
                } catch {
                    throw InputError(.unusableFile, "\(item): standard input, kept in a temporary file: \(error.description)")
                }
            }
            return
        }
        do {
            try form.appendFile(atPath: FilePath(argument: source.path), name: name, filename: source.filename, contentType: type)
        } catch {
            throw InputError(.unusableFile, "\(item): \(error.description)")
        }
    }

    /// A `;type=` value as a media type; `nil` when none was given.
    private static func mediaType(_ declared: String?, item: String) throws(InputError) -> MediaType? {
        guard let declared else { return nil }
        guard let type = MediaType(declared) else {
            throw InputError(.malformedItem, "\(item): '\(declared.echoed)' is not a media type (expected type/subtype, such as image/png)")
        }
        return type
    }

    /// `json` checked; `item` is the item as messages quote it.
    private static func rawJSON(_ json: String, item: String) throws(InputError) -> RawJSON {
        do {
            return try RawJSON(validating: json)
        } catch {
            throw InputError(.malformedItem, "'\(item.echoed)': \(error.description)")
        }
    }

    private func rawBody(_ data: String) throws(InputError) -> HTTPTask {
        if data == "-" {
            if streamsStandardInput { return declaring(.stream(StandardInput(), contentType: .octetStream)) }
            return try body(from: StandardInputContent.readAll(), declaring: .octetStream)
        }
        if data.hasPrefix("@") {
            let path = FilePath(argument: String(data.dropFirst()))
            guard removesContentType else { return .file(atPath: path) }
            do {
                return declaring(try .file(atPath: path))
            } catch {
                throw InputError(.unusableFile, "--data \(data.echoed): \(error.description)")
            }
        }
        let bytes = RawArgument.bytes(of: data)  // as typed, bytes that are not UTF-8 included
        let type = StandardMediaTypeSniffer.standard.mediaType(of: MediaTypeSample(prefix: bytes)) ?? .plainText
        return declaring(.bytes(bytes, contentType: type))
    }
}

extension FilePath {
    /// The path a command-line argument names, byte for byte (see ``RawArgument``).
    init(argument: String) {
        self.init(platformString: RawArgument.bytes(of: argument).map { CChar(bitPattern: $0) } + [0])
    }
}

#if canImport(Glibc)
/// glibc's `malloc_trim(3)`: gives the free whole pages of every malloc
/// arena back to the system; `false` when the C library has none. Found by
/// `dlsym`, with C's calling convention, because `<malloc.h>`, which
/// declares it, is not part of the C library's Swift module.
@discardableResult
private func glibcMallocTrim(_ pad: Int) -> Bool {
    guard let symbol = dlsym(nil, "malloc_trim") else { return false }
    return unsafeBitCast(symbol, to: (@convention(c) (Int) -> Int32).self)(pad) == 1
}
#endif
