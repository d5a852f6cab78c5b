import UploaderItems

/// What a command does, decided once from the options and the positionals,
/// before anything runs. Each kind is one column of ``OptionRule/table``
/// and one type that runs it (``UploadKind/job``, an ``UploadJob``).
enum UploadKind: CaseIterable, Sendable {
    /// `uploader [METHOD] URL [ITEM ...]`: one request built from the items.
    case plain
    /// `--resumable`: the request's body as an IETF draft resumable upload.
    case resumable
    /// `--tus`: one file with tus 1.0.
    case tus
    /// `uploader s3://BUCKET/KEY FILE`: one file to one object.
    case object
    /// `uploader s3://BUCKET/PREFIX/ DIR --recursive`: every file under DIR.
    case objectTree
    /// `uploader --presigned-post FORM.json FILE`: a form made elsewhere.
    case presignedPost

    /// The kind as messages name it: "--json does not apply to *s3:// uploads*".
    var name: String {
        switch self {
        case .plain: "plain requests"
        case .resumable: "--resumable uploads"
        case .tus: "--tus uploads"
        case .object: "s3:// uploads"
        case .objectTree: "recursive s3:// uploads"
        case .presignedPost: "--presigned-post"
        }
    }

    /// The kind `options` and `commandLine` ask for, or the bad input of
    /// asking for two: the first positional naming an object store, the
    /// protocol options, and `--presigned-post` each choose one.
    init(options: UploaderOptions, commandLine: CommandLineSplit) throws(InputError) {
        let targetsObjectStore = commandLine.entries.lazy.compactMap { entry -> String? in
            if case .positional(let text) = entry { return text }
            return nil
        }.first?.lowercased().hasPrefix("s3://") ?? false
        if options.presignedPost != nil {
            if targetsObjectStore {
                throw InputError(.conflictingInput, "--presigned-post posts to the form's own URL; drop the s3:// location")
            }
            self = .presignedPost
        } else if targetsObjectStore {
            self = options.recursive ? .objectTree : .object
        } else if options.resumable, options.tus {
            throw InputError(.conflictingInput, "--resumable and --tus are two protocols; choose one")
        } else if options.resumable {
            self = .resumable
        } else if options.tus {
            self = .tus
        } else {
            self = .plain
        }
    }

    /// Whether its body may come from standard input (the items' request:
    /// piped bytes, `@-`, `--data -`); the other kinds send files they are
    /// given, and say so when bytes are piped to them.
    var readsStandardInput: Bool { self == .plain || self == .resumable || self == .tus }

    /// Whether it sends to an object store (`s3://`).
    var isObjectStorage: Bool { self == .object || self == .objectTree }

    /// How many requests it has in flight at most: an object store's
    /// `--concurrency` (4 unless given), otherwise one.
    func concurrentRequests(_ options: UploaderOptions) -> Int {
        isObjectStorage ? min(max(options.concurrency ?? 4, 1), 64) : 1
    }
}
