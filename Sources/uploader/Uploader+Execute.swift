import Foundation

extension Uploader {
    /// Runs the command and returns the exit status; messages go to standard error.
    func execute(rawArguments: [String]) async -> ExitStatus {
        do {
            let invocation = try Invocation(positionals: arguments, formParts: formParts, headers: headers, rawArguments: rawArguments)
            _ = invocation
            return .success
        } catch {
            OutputFile.standardError.writeText("uploader: \(error)\n")
            return .badInput
        }
    }
}
