import Synchronization

/// Keeps the shared screen readable when standard output and standard
/// error are one terminal: a message never lands on the progress bar's line
/// or after a body's last line that has no newline. Every text written to
/// standard error (``OutputFile/writeText(_:)``) first erases the bar that
/// is drawn, and ends standard output's open line.
enum TerminalLine {
    private struct State: ~Copyable {
        /// The bar drawn now, if any.
        var bar: ProgressBar?
        /// Whether standard output's last byte written was not a newline.
        var outputLineIsOpen = false
    }

    private static let state = Mutex(State())

    /// Notes the bar that draws from now on (`nil` once it is finished).
    static func drawing(_ bar: ProgressBar?) {
        state.withLock { $0.bar = bar }
    }

    /// Notes the last bytes written to standard output.
    static func wroteToStandardOutput(_ bytes: [UInt8]) {
        guard let last = bytes.last else { return }
        state.withLock { $0.outputLineIsOpen = last != UInt8(ascii: "\n") }
    }

    /// Makes room for a line on standard error: the bar erased, and
    /// standard output's open line ended when it is the same terminal.
    static func makeRoom() {
        let (bar, lineIsOpen) = state.withLock { state in
            let open = state.outputLineIsOpen
            state.outputLineIsOpen = false
            return (state.bar, open)
        }
        bar?.clear()
        if lineIsOpen, OutputFile.standardOutput.isTerminal, OutputFile.standardError.isTerminal {
            try? OutputFile.standardOutput.write(Array("\n".utf8))
        }
    }

    /// Ends standard output's open line on a terminal, so the shell's
    /// prompt does not follow a body's last line on the same row.
    static func endOpenOutputLine() {
        let lineIsOpen = state.withLock { state in
            let open = state.outputLineIsOpen
            state.outputLineIsOpen = false
            return open
        }
        if lineIsOpen, OutputFile.standardOutput.isTerminal {
            try? OutputFile.standardOutput.write(Array("\n".utf8))
        }
    }
}
