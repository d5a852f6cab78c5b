#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import HTTPTypes
import UploaderItems

extension ExitStatus {
    /// The exit status for the server's answer, which is reported unless it is a success.
    static func answering(_ status: HTTPResponse.Status) -> ExitStatus {
        let exitStatus = ExitStatus(responseStatus: status.code)
        if exitStatus != .success {
            Diagnostics.report("the server answered \(status.code) \(status.reasonPhrase.echoed)")
        }
        return exitStatus
    }

    /// A failed write of the output: reported, exit 1; but when the reader
    /// of a pipe went away (`uploader … | head -1`), the run ends quietly,
    /// as `cat` does, with the status a shell shows for a program that
    /// SIGPIPE ended (141). The tool ignores SIGPIPE, so that it never dies
    /// of a signal, and so sees the closed pipe as `EPIPE`.
    static func writeFailed(_ error: OutputError) -> ExitStatus {
        if error.errno == EPIPE { return .readerLeft }
        Diagnostics.report(error.description)
        return .failure
    }
}
