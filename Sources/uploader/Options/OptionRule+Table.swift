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
        OptionRule("--multipart", refusals: bodyShaping) { options, _ in options.multipart },
        OptionRule("--form", refusals: bodyShaping) { options, _ in options.form },
        OptionRule("--json", refusals: bodyShaping) { options, _ in options.json },
        OptionRule("--data", value: true, refusals: bodyShaping) { options, _ in options.data != nil },
        OptionRule("-H", "--header", value: true) { _, commandLine in !commandLine.headers.isEmpty },
        // Every kind takes it: none but plain requests reads piped input unasked.
        OptionRule("--ignore-stdin") { options, _ in options.ignoreStdin },
        OptionRule("--chunked", refusals: [
            .resumable: ", which need the body's length before it is sent",
            .tus: ", which need the file's length before it is sent",
            .object: ", which need the file's length before it is sent",
            .objectTree: ", which need each file's length before it is sent",
            .presignedPost: ", which sends a file with its length",
        ]) { options, _ in options.chunked },
        OptionRule("--gzip", refusals: bodyShaping.merging([
            .resumable: ": the compressed bytes' length is not known before they are sent, so they cannot be resumed; drop --gzip",
        ]) { $1 }) { options, _ in options.gzip },
        OptionRule("--boundary", value: true, refusals: bodyShaping) { options, _ in options.boundary != nil },
        OptionRule("--dry-run", "--offline") { options, _ in options.dryRun },
        OptionRule("-o", "--output", value: true, refusals: [
            .objectTree: ", which write a summary, not the store's answers",
        ]) { options, _ in options.output != nil },
        OptionRule("--timeout", value: true) { options, _ in options.timeout != nil },
        OptionRule("--retry", value: true) { options, _ in options.retry != nil },
        OptionRule("--retry-max-time", value: true) { options, _ in options.retryMaxTime != nil },
        OptionRule("--resumable", refusals: resumableByThemselves) { options, _ in options.resumable },
        OptionRule("--tus", refusals: resumableByThemselves) { options, _ in options.tus },
        OptionRule("--chunk-size", value: true, refusals: resumableOnly.merging([
            .object: ", which send parts of --part-size",
            .objectTree: ", which send parts of --part-size",
        ]) { $1 }) { options, _ in options.chunkSize != nil },
        OptionRule("--resume-from", value: true, refusals: resumableOnly.merging([
            .object: ", which find their upload by the command itself: run the same command again",
            .objectTree: ", which find their uploads by the command itself: run the same command again",
        ]) { $1 }) { options, _ in options.resumeFrom != nil },
        OptionRule("--state-dir", value: true, refusals: [
            .plain: "; it applies to resumable uploads: add --resumable or --tus",
            .presignedPost: ", which keeps no state",
        ]) { options, _ in options.stateDir != nil },
        OptionRule("--endpoint-url", value: true, refusals: objectStoreOnly) { options, _ in options.endpointURL != nil },
        OptionRule("--region", value: true, refusals: objectStoreOnly) { options, _ in options.region != nil },
        OptionRule("--part-size", value: true, refusals: objectStoreOnly) { options, _ in options.partSize != nil },
        OptionRule("--concurrency", value: true, refusals: objectStoreOnly) { options, _ in options.concurrency != nil },
        OptionRule("--multipart-threshold", value: true, refusals: objectStoreOnly) { options, _ in options.multipartThreshold != nil },
        // Chooses the kind (UploadKind), which every kind it makes takes.
        OptionRule("--presigned-post", value: true) { options, _ in options.presignedPost != nil },
        OptionRule("-r", "--recursive", refusals: [
            .tus: ", which send one file as it is",
            .presignedPost: ", which sends one file",
        ]) { options, _ in options.recursive },
        // Before -L, which it needs: given both, it is the one refused.
        OptionRule("--max-redirects", value: true, refusals: notFollowed) { options, _ in options.maxRedirects != nil },
        OptionRule("-L", "--follow", refusals: notFollowed) { options, _ in options.follow },
        OptionRule("--profile", value: true, refusals: objectStoreOnly) { options, _ in options.profile != nil },
        OptionRule("--cacert", value: true) { options, _ in options.cacert != nil },
        OptionRule("-k", "--insecure") { options, _ in options.insecure },
        OptionRule("--cert", value: true) { options, _ in options.cert != nil },
        OptionRule("--key", value: true) { options, _ in options.key != nil },
        OptionRule("--proxy", value: true) { options, _ in options.proxy != nil },
        OptionRule("--noproxy", value: true) { options, _ in options.noproxy != nil },
        OptionRule("-a", "--auth", value: true, refusals: signedElsewhere) { options, _ in options.auth != nil },
        OptionRule("--bearer", value: true, refusals: signedElsewhere) { options, _ in options.bearer != nil },
        OptionRule("--netrc", refusals: signedElsewhere) { options, _ in options.netrc },
        OptionRule("--netrc-file", value: true, refusals: signedElsewhere) { options, _ in options.netrcFile != nil },
        OptionRule("--netrc-optional", refusals: signedElsewhere) { options, _ in options.netrcOptional },
        OptionRule("-b", "--cookie", value: true, refusals: cookieless) { options, _ in options.cookie != nil },
        OptionRule("-c", "--cookie-jar", value: true, refusals: cookieless) { options, _ in options.cookieJar != nil },
        OptionRule("--session", value: true, refusals: cookieless) { options, _ in options.session != nil },
        OptionRule("--session-read-only", value: true, refusals: cookieless) { options, _ in options.sessionReadOnly != nil },
        OptionRule("--progress", "--no-progress") { options, _ in options.progress != nil },
        OptionRule("-v", "--verbose") { options, _ in options.verbose },
        OptionRule("--print-response-headers") { options, _ in options.printResponseHeaders },
        OptionRule("--check-status") { options, _ in options.checkStatus },
        OptionRule("-p", "--print", value: true, refusals: [
            .resumable: ", which write the server's final answer as it came; -v shows every head",
            .tus: ", which write the server's final answer as it came; -v shows every head",
            .object: ", which write the AWS CLI's line; -v shows every head and the store's answer",
            .objectTree: ", which write a line per file; -v shows every head",
            .presignedPost: ", which writes the store's answer as it came; -v shows every head",
        ]) { options, _ in options.printed != nil },
        OptionRule("--pretty", value: true, refusals: [
            .resumable: ", which write the server's final answer as it came; drop --pretty",
            .tus: ", which write the server's final answer as it came; drop --pretty",
            .object: ", which write the server's final answer as it came; drop --pretty",
            .objectTree: ", which write a summary; drop --pretty",
            .presignedPost: ", which writes the server's final answer as it came; drop --pretty",
        ]) { options, _ in options.pretty != nil },
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
