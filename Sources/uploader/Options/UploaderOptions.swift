import ArgumentParser
import HTTPBody
import UploaderItems

/// The command line's options, each declared once, here: the parser reads
/// them into this (``Uploader`` holds it as an `@OptionGroup`), its help,
/// man page and completions describe them, `CommandLineSplit` reads which
/// take a value from them (``OptionRule/table``), and the command runs with it.
/// Each property is the option of the same name (`dryRun` is `--dry-run`).
/// A new option is a property here, its line in ``defaults``, its row in
/// the options × kinds table (``OptionRule/table``: which kinds of upload
/// refuse it, and why), and its behaviour (docs/architecture.md, "The
/// uploader's options").
struct UploaderOptions: ParsableArguments, Sendable {
    // `formParts` and `headers` are declared for --help only:
    // CommandLineSplit takes their values (in typed order) before the parser
    // runs, so the parsed values are always empty.

    @Option(name: [.customShort("F"), .customLong("form-part")], help: ArgumentHelp("A multipart part, curl style: 'name=value' or 'name=@path', with ;type=MIME and ;filename=NAME if wanted; double-quote a value that holds ';'. May repeat.", valueName: "part"))
    var formParts: [String] = []

    @Flag(help: "Send multipart/form-data (the default when any file part is present).")
    var multipart = false

    @Flag(help: "Send application/x-www-form-urlencoded (an error with file parts).")
    var form = false

    @Flag(help: "Send a JSON object built from the fields (the default for fields without files).")
    var json = false

    @Option(help: ArgumentHelp("A raw body: '@path' streams a file, '-' reads standard input, anything else is sent as text.", valueName: "data"))
    var data: String?

    @Option(name: [.customShort("H"), .customLong("header")], help: ArgumentHelp("A header, 'Name: value'. May repeat.", valueName: "header"))
    var headers: [String] = []

    @Flag(name: .customLong("ignore-stdin"), help: "Never read standard input as the body (it is when no body item, --data or @- is given and it is a pipe or a file).")
    var ignoreStdin = false

    @Flag(help: "Stream a body or part from standard input as it comes (Transfer-Encoding: chunked) instead of reading it first to send its length.")
    var chunked = false

    @Flag(help: "Compress the request body with gzip (Content-Encoding: gzip), streamed.")
    var gzip = false

    @Option(help: ArgumentHelp("The multipart boundary to use (1-70 characters), for reproducible output.", valueName: "boundary"))
    var boundary: String?

    @Flag(name: [.customLong("dry-run"), .customLong("offline")], help: "Do not connect: write the exact request bytes to standard output (or --output). --offline is HTTPie's name for it.")
    var dryRun = false

    @Option(name: [.short, .long], help: ArgumentHelp("Where the response body (or, with --dry-run, the request) goes.", valueName: "path"))
    var output: String?

    @Option(help: ArgumentHelp("Per-attempt timeout in seconds.", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Retry up to N times on connection failures, timeouts, 408, 425, 429 and 5xx (resumable uploads: resume up to N times, 5 by default).", valueName: "N"))
    var retry: Int?

    @Option(name: .customLong("retry-max-time"), help: ArgumentHelp("Bound all attempts of the run to this many seconds: no retry or resume starts, and no wait is taken, that would end later; a retried attempt gets what is left as its timeout.", valueName: "seconds"))
    var retryMaxTime: Double?

    @Flag(help: "Send the request as a resumable upload (IETF draft); running the same command again continues it.")
    var resumable = false

    @Flag(help: "Upload one file with tus 1.0; URL is the creation endpoint, text fields become Upload-Metadata.")
    var tus = false

    @Option(name: .customLong("chunk-size"), help: ArgumentHelp("Bytes per append request, with a K, M or G suffix (default: all of it for --resumable, 8M for --tus).", valueName: "size"))
    var chunkSize: String?

    @Option(name: .customLong("resume-from"), help: ArgumentHelp("Continue the upload at this resumption or tus upload URL.", valueName: "URL"))
    var resumeFrom: String?

    @Option(name: .customLong("state-dir"), help: ArgumentHelp("Where resume state is kept (default: $XDG_STATE_HOME/uploader, else ~/.local/state/uploader).", valueName: "dir"))
    var stateDir: String?

    @Option(name: .customLong("endpoint-url"), help: ArgumentHelp("s3://: an S3-compatible store's URL (path-style addressing); AWS by default.", valueName: "URL"))
    var endpointURL: String?

    @Option(help: ArgumentHelp("s3://: the signing region (default: $AWS_REGION, $AWS_DEFAULT_REGION, else us-east-1).", valueName: "region"))
    var region: String?

    @Option(name: .customLong("part-size"), help: ArgumentHelp("s3://: bytes per part of a multipart upload, 5M to 5G (default 8M).", valueName: "size"))
    var partSize: String?

    @Option(help: ArgumentHelp("s3://: parts sent at once, and with --recursive files, 1 to 64 (default 4).", valueName: "N"))
    var concurrency: Int?

    @Option(name: .customLong("multipart-threshold"), help: ArgumentHelp("s3://: files of at least this size go as a multipart upload (default 8M).", valueName: "size"))
    var multipartThreshold: String?

    @Option(name: .customLong("presigned-post"), help: ArgumentHelp("Fill the presigned POST form in this JSON file (boto3's generate_presigned_post) with FILE.", valueName: "form.json"))
    var presignedPost: String?

    @Flag(name: [.customShort("r"), .long], help: "Send a directory given as a file part (name@dir) as one part per file under it; with s3://, upload every file under DIR.")
    var recursive = false

    @Flag(name: [.customShort("L"), .customLong("follow")], help: "Follow redirects (303, and 301/302 after POST, as GET; 307/308 send the same body again).")
    var follow = false

    @Option(name: .customLong("max-redirects"), help: ArgumentHelp("With -L: the most redirects followed, 0 to 100 (default 30).", valueName: "N"))
    var maxRedirects: Int?

    @Option(help: ArgumentHelp("s3://: the profile of ~/.aws/credentials and ~/.aws/config to use (default: $AWS_PROFILE, else default).", valueName: "name"))
    var profile: String?

    @Option(help: ArgumentHelp("Trust the CA certificates in this PEM file instead of the system's store (and $SSL_CERT_FILE / $SSL_CERT_DIR).", valueName: "file"))
    var cacert: String?

    @Flag(name: [.customShort("k"), .customLong("insecure")], help: "Do not verify the server's certificate (anyone on the path can read and change the upload).")
    var insecure = false

    @Option(help: ArgumentHelp("A client certificate (PEM) for servers that ask for one; the key may follow it in the file.", valueName: "file"))
    var cert: String?

    @Option(help: ArgumentHelp("The client certificate's private key (PEM, not encrypted), when it is not in --cert's file.", valueName: "file"))
    var key: String?

    @Option(help: ArgumentHelp("Send through this http:// proxy ([user:password@]host[:port]; https:// targets through CONNECT) instead of $http_proxy, $https_proxy, $all_proxy.", valueName: "URL"))
    var proxy: String?

    @Option(help: ArgumentHelp("Hosts reached without the proxy, comma-separated ('.example.com' for a domain, '*' for all), instead of $no_proxy.", valueName: "list"))
    var noproxy: String?

    @Option(name: [.customShort("a"), .customLong("auth")], help: ArgumentHelp("Basic credentials, 'user:password'; 'user' alone asks for the password on the terminal.", valueName: "user[:password]"))
    var auth: String?

    @Option(help: ArgumentHelp("Send 'Authorization: Bearer TOKEN'.", valueName: "token"))
    var bearer: String?

    @Flag(help: "Take the login and password for the host from $NETRC, else ~/.netrc, as curl does.")
    var netrc = false

    @Option(name: .customLong("netrc-file"), help: ArgumentHelp("Take the login and password from this netrc file instead (as curl's --netrc-file); a missing file is an error unless --netrc-optional is given.", valueName: "file"))
    var netrcFile: String?

    @Flag(name: .customLong("netrc-optional"), help: "As --netrc, but a netrc file that does not exist is not an error (curl's --netrc-optional).")
    var netrcOptional = false

    @Option(name: [.customShort("b"), .customLong("cookie")], help: ArgumentHelp("Send cookies, as curl: 'name=value; n2=v2' as given, or (no '=') the cookies of a file in curl's Netscape format or of Set-Cookie lines, missing is empty.", valueName: "data|file"))
    var cookie: String?

    @Option(name: [.customShort("c"), .customLong("cookie-jar")], help: ArgumentHelp("Write every cookie at the end of the run to this file (0600, curl's Netscape format; '-' for standard output). It holds secrets, as ~/.netrc.", valueName: "file"))
    var cookieJar: String?

    @Option(help: ArgumentHelp("Keep headers, credentials and cookies between runs, as HTTPie: a NAME under $XDG_CONFIG_HOME/uploader/sessions/HOST/, or a PATH with a '/'. The file (0600) holds secrets.", valueName: "name|path"))
    var session: String?

    @Option(name: .customLong("session-read-only"), help: ArgumentHelp("As --session, but the session file is never changed.", valueName: "name|path"))
    var sessionReadOnly: String?

    @Flag(inversion: .prefixedNo, help: "--progress shows a progress bar on standard error, --no-progress never does (default: shown on a terminal).")
    var progress: Bool?

    @Flag(name: .shortAndLong, help: "Print the request head and response head to standard error.")
    var verbose = false

    @Flag(name: .customLong("print-response-headers"), help: "Print the response head to standard error.")
    var printResponseHeaders = false

    @Option(name: [.customShort("p"), .customLong("print")], help: ArgumentHelp("What a plain request writes to its output, HTTPie's letters: H request head, B request body, h response head, b response body (default: b; h for HEAD on a terminal).", valueName: "what"))
    var printed: String?

    @Flag(name: .customLong("check-status"), help: "HTTPie's: exit 4 for a 4xx and 5 for a 5xx or an unfollowed 3xx, which the uploader always does.")
    var checkStatus = false

    @Option(help: ArgumentHelp("How a JSON response body is shown: indented and coloured (all), indented (format), coloured (colors), or as sent (none); default: all on a terminal, none otherwise.", valueName: "style"))
    var pretty: PrettyStyle?

    @Flag(help: "Ask for a compressed response (Accept-Encoding: deflate, gzip) and write its body decoded, as curl's --compressed.")
    var compressed = false

    /// What the declarations above default to, which the options × kinds
    /// table sets a command's options on (``OptionRule/options(assigning:)``)
    /// without asking the parser. Every property is set, as the parser
    /// would: UploaderOptionsTests holds the two equal.
    static let defaults: UploaderOptions = {
        var options = UploaderOptions()
        (options.formParts, options.headers) = ([], [])
        (options.multipart, options.form, options.json, options.data, options.gzip) = (false, false, false, nil, false)
        (options.boundary, options.dryRun, options.output, options.timeout, options.retry, options.retryMaxTime) = (nil, false, nil, nil, nil, nil)
        (options.resumable, options.tus, options.chunkSize, options.resumeFrom, options.stateDir) = (false, false, nil, nil, nil)
        (options.endpointURL, options.region, options.partSize, options.concurrency) = (nil, nil, nil, nil)
        (options.multipartThreshold, options.presignedPost, options.recursive, options.progress) = (nil, nil, false, nil)
        (options.verbose, options.printResponseHeaders, options.pretty, options.checkStatus, options.printed) = (false, false, nil, false, nil)
        (options.follow, options.maxRedirects, options.ignoreStdin, options.chunked) = (false, nil, false, false)
        (options.profile, options.cacert, options.insecure, options.cert, options.key) = (nil, nil, false, nil, nil)
        (options.proxy, options.noproxy, options.auth, options.bearer, options.netrc) = (nil, nil, nil, nil, false)
        (options.netrcFile, options.netrcOptional, options.compressed) = (nil, false, false)
        (options.cookie, options.cookieJar, options.session, options.sessionReadOnly) = (nil, nil, nil, nil)
        return options
    }()

    /// The largest `--timeout`, in seconds (about 11.6 days): past it NIO's
    /// clock would overflow, and no upload waits that long for an answer.
    static let maximumTimeout = 1_000_000.0
    /// The most `--retry` allows: a script's typo, not a policy, past that.
    static let maximumRetries = 100

    /// Checks the options' ranges and combinations before anything else
    /// runs (`--boundary` whatever the body); the times' ranges, whose
    /// messages echo the text as typed, are ``validateTimes(typed:)``'s.
    func validate() throws {
        let kinds = [(json, "--json"), (form, "--form"), (multipart, "--multipart")].filter(\.0).map(\.1)
        guard kinds.count <= 1 else {
            throw ValidationError("\(kinds.joined(separator: " and ")) contradict each other; choose one body kind")
        }
        if data != nil, !kinds.isEmpty {
            throw ValidationError("--data sends a raw body; drop --json, --form or --multipart")
        }
        if let retry, !(0...Self.maximumRetries).contains(retry) {
            throw ValidationError("--retry \(retry): the retry count must be a whole number from 0 to \(Self.maximumRetries)")
        }
        try validateResumable()
        try validateRedirects()
        try validateAuthentication()
        if session != nil, sessionReadOnly != nil {
            throw ValidationError("--session and --session-read-only name one session two ways; choose one")
        }
        try validateObjectStorage()
        if let printed, PrintSelection(printed) == nil {
            throw ValidationError("--print '\(printed.echoed)': give letters of HBhb: H request head, B request body, h response head, b response body")
        }
        if let boundary {
            do {
                _ = try MultipartBoundary.constant(boundary)
            } catch {
                throw ValidationError("--boundary: \(error.description.echoed)")
            }
        }
    }
}
