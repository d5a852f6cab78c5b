import HTTPBody
import RequestBuilder

/// `--dry-run`: the exact request bytes, written instead of sent.
enum DryRunOutput {
    /// Writes `request` as it would go on the wire to `target`; a terminal
    /// is shown no binary bytes (``TerminalBinaryFilter``).
    static func write(_ request: PreparedRequest, to target: OutputTarget) async -> ExitStatus {
        do {
            let raw = request.raw()
            var destination: OutputFile?
            var filter: TerminalBinaryFilter? = target == .standardOutput && OutputFile.standardOutput.isTerminal ? TerminalBinaryFilter() : nil
            for try await chunk in raw.chunks() {
                // Opened with the first bytes, so a body that fails to open
                // (a file deleted since it was checked) leaves -o untouched.
                if destination == nil { destination = try target.open() }
                try destination?.write(filter?.pass(chunk) ?? chunk)
            }
            if let note = filter?.note(contentType: nil) {
                TerminalLine.endOpenOutputLine()
                try destination?.write(Array(note.utf8))
            }
            try (destination ?? target.open()).synchronize()
            return .success
        } catch let error as OutputError {
            return .writeFailed(error)
        } catch {
            Diagnostics.report("\(error)")  // a file that changed size, a boundary found in standard input
            return .networkFailure
        }
    }
}
