import Synchronization

/// The command line, handed from `main`'s thread to the task that runs it,
/// so that task owns the only copy: once the request's items are parsed
/// from it (``Invocation``), its arguments (a `String` each, about 100 bytes
/// an item) are freed before the files are opened and sniffed, instead of
/// lasting as long as the transfer.
final class CommandLineHandOff: Sendable {
    private let commandLine: Mutex<CommandLineSplit?>

    /// Holds `commandLine` until ``take()``.
    init(_ commandLine: consuming CommandLineSplit) {
        self.commandLine = Mutex(commandLine)
    }

    /// The command line, for the one caller that runs it; an empty one
    /// after (nothing takes it twice).
    func take() -> CommandLineSplit {
        commandLine.withLock { $0.take() } ?? CommandLineSplit([])
    }
}
