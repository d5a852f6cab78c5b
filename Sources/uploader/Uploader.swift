import ArgumentParser
import Foundation
import HTTPBody
import RequestBuilder
import UploaderItems

/// `uploader [METHOD] URL [ITEM ...] [OPTIONS]`: uploads files and sends
/// hand-built requests (contract: shared/specs/uploader-cli.md).
@main
struct Uploader: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uploader",
        abstract: "Upload files and send hand-built HTTP requests.",
        usage: "uploader [METHOD] URL [ITEM ...] [OPTIONS]",
        discussion: HelpText.discussion,
        version: "0.1.0"
    )

    // `arguments`, `formParts` and `headers` are declared for --help only:
    // CommandLineSplit takes their values before the parser runs.

    @Argument(help: ArgumentHelp("[METHOD] URL [ITEM ...]: an optional method, the URL, then request items (see below).", valueName: "arguments"))
    var arguments: [String] = []

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

    @Flag(help: "Compress the request body with gzip (Content-Encoding: gzip), streamed.")
    var gzip = false

    @Option(help: ArgumentHelp("The multipart boundary to use (1-70 characters), for reproducible output.", valueName: "boundary"))
    var boundary: String?

    @Flag(name: .customLong("dry-run"), help: "Do not connect: write the exact request bytes to standard output (or --output).")
    var dryRun = false

    @Option(name: [.short, .long], help: ArgumentHelp("Where the response body (or, with --dry-run, the request) goes.", valueName: "path"))
    var output: String?

    @Option(help: ArgumentHelp("Per-attempt timeout in seconds.", valueName: "seconds"))
    var timeout: Double?

    @Option(help: ArgumentHelp("Retry up to N times on connection failures, timeouts, 408, 429 and 5xx (resumable uploads: resume up to N times, 5 by default).", valueName: "N"))
    var retry: Int?

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

    @Option(help: ArgumentHelp("s3://: parts sent at once, 1 to 64 (default 4).", valueName: "N"))
    var concurrency: Int?

    @Option(name: .customLong("multipart-threshold"), help: ArgumentHelp("s3://: files of at least this size go as a multipart upload (default 8M).", valueName: "size"))
    var multipartThreshold: String?

    @Option(name: .customLong("presigned-post"), help: ArgumentHelp("Fill the presigned POST form in this JSON file (boto3's generate_presigned_post) with FILE.", valueName: "form.json"))
    var presignedPost: String?

    @Flag(inversion: .prefixedNo, help: "Show a progress bar on standard error (default: when it is a terminal).")
    var progress: Bool?

    @Flag(name: .shortAndLong, help: "Print the request head and response head to standard error.")
    var verbose = false

    @Flag(name: .customLong("print-response-headers"), help: "Print the response head to standard error.")
    var printResponseHeaders = false

    /// The options as plain values, for the command to run with.
    var options: UploaderOptions {
        UploaderOptions(
            multipart: multipart, form: form, json: json, data: data, gzip: gzip, boundary: boundary,
            dryRun: dryRun, output: output, timeout: timeout, retry: retry,
            resumable: resumable, tus: tus, chunkSize: chunkSize, resumeFrom: resumeFrom, stateDir: stateDir,
            endpointURL: endpointURL, region: region, partSize: partSize, concurrency: concurrency,
            multipartThreshold: multipartThreshold, presignedPost: presignedPost,
            progress: progress, verbose: verbose, printResponseHeaders: printResponseHeaders
        )
    }

    /// What the parser makes of `arguments` (the options, never the items),
    /// checked by ``validate()``.
    static func parsedOptions(_ arguments: [String]) throws -> UploaderOptions {
        try parse(arguments).options
    }

    /// Checks the options' ranges before anything else runs (``UploaderOptions/validate()``).
    func validate() throws {
        try options.validate()
    }

    /// Parses the arguments itself so that every usage error exits with
    /// status 2 (the contract's bad input), not the parser's 64.
    ///
    /// Synchronous: the command runs on Swift's concurrency threads while
    /// this one waits for the exit. An `async` main would park this thread
    /// in `dispatch_main`, which ends it with `pthread_exit`, and that
    /// unwinds its stack through the binary's unwind tables (0.6 MB read,
    /// and time spent) for nothing.
    static func main() {
        #if os(Linux)
        RelocationTable.release()
        #endif
        StandardDescriptors.openClosedOnes()
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is an error to report, not a reason to die
        // Read from argv's bytes: CommandLine.arguments would lose a file
        // name that is not UTF-8.
        let commandLine = CommandLineSplit(RawArgument.commandLine())
        let options: UploaderOptions
        do {
            // With no options the parser's answer is known: the defaults
            // (UploaderOptionsTests holds the two equal). Asking it anyway
            // costs a third of a tiny upload's instructions, most of them in
            // the runtime's protocol lookups for its reflection and for the
            // two completion-script commands it tries first.
            options = commandLine.options.isEmpty ? .defaults : try parsedOptions(commandLine.options)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }  // --help, --version
            let hint = error is ValidationError ? "" : " (see 'uploader --help')"
            // The parser puts each alternative reading on a line of its own
            // ("\n   or: …"): kept, on the one line a message has.
            let lines = message(for: error).split(separator: "\n").map { String($0).trimmingSpaces }
            let text = (lines.first ?? "") + lines.dropFirst().map { " (\($0))" }.joined()
            UploaderOptions.report(text.echoed + hint)
            Foundation.exit(ExitStatus.badInput.rawValue)
        }
        if !options.dryRun {
            // An out-of-range --concurrency is reported as bad input later.
            let connections = UploaderOptions.isObjectStorageTarget(commandLine) ? min(max(options.concurrency ?? 4, 1), 64) : 1
            if let message = DescriptorBudget.shortfall(connections: connections) {
                UploaderOptions.report(message)
                Foundation.exit(ExitStatus.networkFailure.rawValue)
            }
        }
        Task.detached {
            let status = await options.execute(commandLine)
            Foundation.exit(status.rawValue)
        }
        // While the request is prepared (files sized and sniffed), this
        // thread starts the event loop and the client the request will need.
        if !options.dryRun { _ = UploaderOptions.httpClient }
        while true { pause() }  // until the task exits (or a signal ends the process)
    }
}
