import RequestBuilder
import UploaderItems

/// One kind of upload (``UploadKind``), as one type of the same small shape:
/// made from the options, the command line and the transport (everything
/// read and checked, nothing sent), then either its dry run or its run.
/// Both report on standard error what goes wrong and return the exit status.
protocol UploadJob {
    /// Reads and checks every input the upload needs; a failure is bad input
    /// (exit 2) and nothing is sent.
    init(options: UploaderOptions, commandLine: CommandLineSplit, network: any HTTPTransport) throws(InputError)

    /// Writes the first request the upload would send, as it would go on
    /// the wire, instead of sending anything (`--dry-run`).
    func dryRun() async -> ExitStatus

    /// Sends the upload and writes what the kind writes of the answer.
    func run() async -> ExitStatus
}
