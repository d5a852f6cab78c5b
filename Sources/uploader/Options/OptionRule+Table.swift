import UploaderItems

extension OptionRule {
    /// Every option's row, in the order a command's options are checked.
    static let table: [OptionRule] = [
        OptionRule("-F", "--form-part", value: true, refusals: [
            .object: ", which send one file as it is; give s3://BUCKET/KEY FILE",
            .objectTree: ", which send files as they are; give s3://BUCKET/PREFIX/ DIR",
            .presignedPost: "; give FILE and name=value fields",
        ]) { _, commandLine in
            commandLine.entries.contains { if case .formPart = $0 { true } else { false } }
        },
        OptionRule("--multipart", sets: .flag(\.multipart), refusals: bodyShaping),
        OptionRule("--form", sets: .flag(\.form), refusals: bodyShaping),
        OptionRule("--json", sets: .flag(\.json), refusals: bodyShaping),
        OptionRule("--data", sets: .value(\.data), refusals: bodyShaping),
        OptionRule("-H", "--header", value: true) { _, commandLine in !commandLine.headers.isEmpty },
        // Every kind takes it: none but plain requests reads piped input unasked.
        OptionRule("--ignore-stdin", sets: .flag(\.ignoreStdin)),
        OptionRule("--chunked", sets: .flag(\.chunked), refusals: [
            .resumable: ", which need the body's length before it is sent",
            .tus: ", which need the file's length before it is sent",
            .object: ", which need the file's length before it is sent",
            .objectTree: ", which need each file's length before it is sent",
            .presignedPost: ", which sends a file with its length",
        ]),
        OptionRule("--gzip", sets: .flag(\.gzip), refusals: bodyShaping.merging([
            .resumable: ": the compressed bytes' length is not known before they are sent, so they cannot be resumed; drop --gzip",
        ]) { $1 }),
        OptionRule("--boundary", sets: .value(\.boundary), refusals: bodyShaping),
        OptionRule("--dry-run", "--offline", sets: .flag(\.dryRun)),
        OptionRule("-o", "--output", sets: .value(\.output), refusals: [
            .objectTree: ", which write a summary, not the store's answers",
        ]),
        OptionRule("--timeout", sets: .value(\.timeout)),
        OptionRule("--retry", sets: .value(\.retry)),
        OptionRule("--retry-max-time", sets: .value(\.retryMaxTime)),
        OptionRule("--resumable", sets: .flag(\.resumable), refusals: resumableByThemselves),
        OptionRule("--tus", sets: .flag(\.tus), refusals: resumableByThemselves),
        OptionRule("--chunk-size", sets: .value(\.chunkSize), refusals: resumableOnly.merging([
            .object: ", which send parts of --part-size",
            .objectTree: ", which send parts of --part-size",
        ]) { $1 }),
        OptionRule("--resume-from", sets: .value(\.resumeFrom), refusals: resumableOnly.merging([
            .object: ", which find their upload by the command itself: run the same command again",
            .objectTree: ", which find their uploads by the command itself: run the same command again",
        ]) { $1 }),
        OptionRule("--state-dir", sets: .value(\.stateDir), refusals: [
            .plain: "; it applies to resumable uploads: add --resumable or --tus",
            .presignedPost: ", which keeps no state",
        ]),
        OptionRule("--endpoint-url", sets: .value(\.endpointURL), refusals: objectStoreOnly),
        OptionRule("--region", sets: .value(\.region), refusals: objectStoreOnly),
        OptionRule("--part-size", sets: .value(\.partSize), refusals: objectStoreOnly),
        OptionRule("--concurrency", sets: .value(\.concurrency), refusals: objectStoreOnly),
        OptionRule("--multipart-threshold", sets: .value(\.multipartThreshold), refusals: objectStoreOnly),
        // Chooses the kind (UploadKind), which every kind it makes takes.
        OptionRule("--presigned-post", sets: .value(\.presignedPost)),
        OptionRule("-r", "--recursive", sets: .flag(\.recursive), refusals: [
            .tus: ", which send one file as it is",
            .presignedPost: ", which sends one file",
        ]),
        // Before -L, which it needs: given both, it is the one refused.
        OptionRule("--max-redirects", sets: .value(\.maxRedirects), refusals: notFollowed),
        OptionRule("-L", "--follow", sets: .flag(\.follow), refusals: notFollowed),
        OptionRule("--profile", sets: .value(\.profile), refusals: objectStoreOnly),
        OptionRule("--cacert", sets: .value(\.cacert)),
        OptionRule("-k", "--insecure", sets: .flag(\.insecure)),
        OptionRule("--cert", sets: .value(\.cert)),
        OptionRule("--key", sets: .value(\.key)),
        OptionRule("--proxy", sets: .value(\.proxy)),
        OptionRule("--noproxy", sets: .value(\.noproxy)),
        OptionRule("-a", "--auth", sets: .value(\.auth), refusals: signedElsewhere),
        OptionRule("--bearer", sets: .value(\.bearer), refusals: signedElsewhere),
        OptionRule("--netrc", sets: .flag(\.netrc), refusals: signedElsewhere),
        OptionRule("--netrc-file", sets: .value(\.netrcFile), refusals: signedElsewhere),
        OptionRule("--netrc-optional", sets: .flag(\.netrcOptional), refusals: signedElsewhere),
        OptionRule("-b", "--cookie", sets: .value(\.cookie), refusals: cookieless),
        OptionRule("-c", "--cookie-jar", sets: .value(\.cookieJar), refusals: cookieless),
        OptionRule("--session", sets: .value(\.session), refusals: cookieless),
        OptionRule("--session-read-only", sets: .value(\.sessionReadOnly), refusals: cookieless),
        OptionRule("--progress", "--no-progress", sets: .inversion(\.progress)),
        OptionRule("-v", "--verbose", sets: .flag(\.verbose)),
        OptionRule("--print-response-headers", sets: .flag(\.printResponseHeaders)),
        OptionRule("--check-status", sets: .flag(\.checkStatus)),
        OptionRule("-p", "--print", sets: .value(\.printed), refusals: [
            .resumable: ", which write the server's final answer as it came; -v shows every head",
            .tus: ", which write the server's final answer as it came; -v shows every head",
            .object: ", which write the AWS CLI's line; -v shows every head and the store's answer",
            .objectTree: ", which write a line per file; -v shows every head",
            .presignedPost: ", which writes the store's answer as it came; -v shows every head",
        ]),
        OptionRule("--pretty", sets: .value(\.pretty), refusals: [
            .resumable: ", which write the server's final answer as it came; drop --pretty",
            .tus: ", which write the server's final answer as it came; drop --pretty",
            .object: ", which write the server's final answer as it came; drop --pretty",
            .objectTree: ", which write a summary; drop --pretty",
            .presignedPost: ", which writes the server's final answer as it came; drop --pretty",
        ]),
        OptionRule("--compressed", sets: .flag(\.compressed), refusals: [
            .resumable: ", which write the server's final answer as it came; drop --compressed",
            .tus: ", which write the server's final answer as it came; drop --compressed",
            .object: ", which write the AWS CLI's line; drop --compressed",
            .objectTree: ", which write a line per file; drop --compressed",
            .presignedPost: ", which writes the store's answer as it came; drop --compressed",
        ]),
    ]

    /// The options that shape a request body, refused by the kinds that
    /// send a file as it is or a form of their own.
    private static let bodyShaping: [UploadKind: String] = [
        .tus: ", which send one file (name@path) as it is",
        .object: ", which send one file as it is",
        .objectTree: ", which send files as they are",
        .presignedPost: ", which sends the form as multipart/form-data",
    ]

    /// The options of resumable uploads only.
    private static let resumableOnly: [UploadKind: String] = [
        .plain: "; it applies to resumable uploads: add --resumable or --tus",
        .presignedPost: ", which sends the form in one request",
    ]

    /// The protocol options, refused where an upload resumes on its own or
    /// is one request.
    private static let resumableByThemselves: [UploadKind: String] = [
        .object: ", which are resumable by themselves: a rerun of the same command continues one",
        .objectTree: ", which are resumable by themselves: a rerun of the same command continues one",
        .presignedPost: ", which sends the form in one request",
    ]

    /// The options of object stores only.
    private static let objectStoreOnly: [UploadKind: String] = [
        .plain: "; it applies to s3:// uploads: give s3://BUCKET/KEY FILE",
        .resumable: "; it applies to s3:// uploads: give s3://BUCKET/KEY FILE",
        .tus: "; it applies to s3:// uploads: give s3://BUCKET/KEY FILE",
        .presignedPost: ", whose form names its own bucket and key",
    ]

    /// The redirect options, refused where a redirect is the protocol's or
    /// a mistake in the set-up.
    private static let notFollowed: [UploadKind: String] = [
        .resumable: ", which follow the Location their server gives by themselves; drop -L",
        .tus: ", which follow the Location their server gives by themselves; drop -L",
        .object: ", whose requests are signed for one endpoint; give the right --endpoint-url or --region",
        .objectTree: ", whose requests are signed for one endpoint; give the right --endpoint-url or --region",
        .presignedPost: ", whose redirect (success_action_redirect) is a page for a browser; drop -L",
    ]

    /// The cookie and session options, refused where requests go to an
    /// object store, which sets no cookies and takes no session's headers.
    private static let cookieless: [UploadKind: String] = [
        .object: ", which are signed requests to an object store: it sets no cookies, and a session's headers would change what is signed",
        .objectTree: ", which are signed requests to an object store: it sets no cookies, and a session's headers would change what is signed",
        .presignedPost: ", whose form carries its own signature: the store sets no cookies",
    ]

    /// The credential options, refused where requests carry a signature.
    private static let signedElsewhere: [UploadKind: String] = [
        .object: ", which are signed with AWS credentials (the environment's, or the profile's: --profile)",
        .objectTree: ", which are signed with AWS credentials (the environment's, or the profile's: --profile)",
        .presignedPost: ", whose form carries its own signature",
    ]
}
