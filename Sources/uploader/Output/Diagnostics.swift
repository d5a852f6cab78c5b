import UploaderItems

/// The command's messages on standard error, one line each.
enum Diagnostics {
    /// Writes one line to standard error: the libraries' advice to
    /// programmers in the command's words (``LibraryAdvice``), credentials
    /// in URLs hidden (``MessageRedaction``), overlong values cut
    /// (`cuttingLongRuns`), control characters escaped.
    static func report(_ message: String) {
        let text = MessageRedaction.masking(LibraryAdvice.rewriting(message)).cuttingLongRuns
        OutputFile.standardError.writeText("uploader: \(text.escapedForMessage)\n")
    }
}
