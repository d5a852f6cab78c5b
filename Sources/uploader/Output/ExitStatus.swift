/// The exit statuses of the contract (shared/specs/uploader-cli.md).
enum ExitStatus: Int32 {
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
    /// Standard output (or `-o`) is a pipe whose reader went away
    /// (`uploader … | head -1`): the run ends without a message, with the
    /// status a shell reports for `cat` ended by SIGPIPE (128 + 13).
    case readerLeft = 141

    /// The status for a response code.
    init(responseStatus code: Int) {
        switch code {
        case 200..<300: self = .success
        case 400..<500: self = .clientError
        default: self = .serverError
        }
    }
}
