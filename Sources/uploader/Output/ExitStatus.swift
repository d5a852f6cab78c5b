/// The exit statuses of the contract (shared/specs/uploader-cli.md): the
/// one list that `--help`, the man page and docs/uploader.md show
/// (``meaning``), each a case here.
enum ExitStatus: Int32, CaseIterable {
    /// A 2xx response, or a dry run.
    case success = 0
    /// Something local failed that is not the user's input (writing --output).
    case failure = 1
    /// Bad input: nothing was sent.
    case badInput = 2
    /// The network failed, after any retries, or the upload had to be stopped.
    case networkFailure = 3
    /// The server answered 4xx.
    case clientError = 4
    /// The server answered 5xx, or a 3xx not followed (without `-L`, or a
    /// 300 or 304, which name no one target).
    case serverError = 5
    /// Interrupted (Ctrl-C, SIGINT: 128 + 2); a resumable upload's state is kept.
    case interrupted = 130
    /// Standard output (or `-o`) is a pipe whose reader went away
    /// (`uploader … | head -1`): the run ends without a message, with the
    /// status a shell reports for `cat` ended by SIGPIPE (128 + 13).
    case readerLeft = 141
    /// Stopped by SIGTERM (128 + 15); a resumable upload's state is kept.
    case terminated = 143

    /// The status for a response code.
    init(responseStatus code: Int) {
        switch code {
        case 200..<300: self = .success
        case 400..<500: self = .clientError
        default: self = .serverError
        }
    }

    /// What the status means, as `--help` and the docs say it.
    var meaning: String {
        switch self {
        case .success: "a 2xx response, or a dry run"
        case .failure: "the output could not be written, or the resume state could not be saved"
        case .badInput: "bad input: nothing was sent"
        case .networkFailure: "network failure after any retries, or the upload had to be stopped"
        case .clientError: "the server answered 4xx"
        case .serverError: "the server answered 5xx, or a 3xx that was not followed"
        case .interrupted: "interrupted (Ctrl-C); a resumable upload's state is kept"
        case .readerLeft: "the reader of the output went away (as for cat | head), no message"
        case .terminated: "stopped by SIGTERM; a resumable upload's state is kept"
        }
    }

    /// One line per status, `  N  meaning`, for `--help` and the man page.
    static var helpLines: String {
        allCases.map { status in
            let number = String(status.rawValue)
            return "  " + number + String(repeating: " ", count: max(1, 5 - number.count)) + status.meaning
        }.joined(separator: "\n")
    }

    /// The docs' table of the statuses.
    static var markdownTable: String {
        "| status | meaning |\n| --- | --- |\n" + allCases.map { "| \($0.rawValue) | \($0.meaning) |" }.joined(separator: "\n") + "\n"
    }
}
