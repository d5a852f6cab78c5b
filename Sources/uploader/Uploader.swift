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

    /// The forms a command takes, as USAGE and the man page's SYNOPSIS show them.
    static let synopsis = [
        "uploader [METHOD] URL [ITEM ...] [OPTIONS]",
        "uploader s3://BUCKET/KEY FILE [Header:value ...] [OPTIONS]",
        "uploader s3://BUCKET/PREFIX/ DIR --recursive [Header:value ...] [OPTIONS]",
        "uploader --presigned-post FORM.json FILE [name=value ...] [OPTIONS]",
        "uploader --generate-completion-script bash|zsh|fish",
        "uploader --generate-manual",
    ]

    // `arguments` is declared for --help only: CommandLineSplit takes the
    // method, URL and items before the parser runs.

    @Argument(help: ArgumentHelp("[METHOD] URL [ITEM ...]: an optional method, the URL, then request items (see below).", valueName: "arguments"))
    var arguments: [String] = []

    /// Every option, declared once (``UploaderOptions``).
    @OptionGroup var options: UploaderOptions

    /// What the parser makes of `arguments` (the options, never the items),
    /// checked by ``UploaderOptions/validate()`` and
    /// ``UploaderOptions/validateTimes(typed:)``.
    static func parsedOptions(_ arguments: [String]) throws -> UploaderOptions {
        let options = try parse(arguments).options
        try options.validateTimes(typed: arguments)
        return options
    }

    /// Parses the arguments itself so that every usage error exits with
    /// status 2 (the contract's bad input), not the parser's 64.
    ///
    /// Synchronous: the command runs on Swift's concurrency threads while
    /// this one waits for the exit. An `async` main would park this thread
    /// in `dispatch_main`, which ends it with `pthread_exit`, and that
    /// unwinds its stack through the binary's unwind tables (read from the
    /// file) for nothing.
    static func main() {
        #if os(Linux)
        RelocationTable.release()
        #endif
        StandardDescriptors.openClosedOnes()
        signal(SIGPIPE, SIG_IGN)  // a closed pipe is an error to report, not a reason to die
        // Read from argv's bytes: CommandLine.arguments would lose a file
        // name that is not UTF-8.
        let commandLine = CommandLineSplit(RawArgument.commandLine())
        // The help, the man page and the completion scripts are the
        // uploader's own, made from the declarations and the options table.
        if commandLine.options.contains(where: { $0 == "--help" || $0 == "-h" }) {
            OutputFile.standardOutput.writeText(CommandReference().helpPage)
            Foundation.exit(ExitStatus.success.rawValue)
        }
        if commandLine.options.contains("--generate-manual") {
            OutputFile.standardOutput.writeText(ManualPage.page)
            Foundation.exit(ExitStatus.success.rawValue)
        }
        if let shell = commandLine.options.lazy.compactMap({ $0.completionShell }).first {
            guard let script = CompletionScript.script(for: shell) else {
                Diagnostics.report("--generate-completion-script \(shell.echoed): give bash, zsh or fish")
                Foundation.exit(ExitStatus.badInput.rawValue)
            }
            OutputFile.standardOutput.writeText(script)
            Foundation.exit(ExitStatus.success.rawValue)
        }
        let options: UploaderOptions
        do {
            // The table sets what it can; the parser, whose reflection of
            // the declarations costs most of a short command's start-up,
            // reads only what the table leaves to it and gives its messages.
            options = try OptionRule.options(assigning: commandLine.options) ?? parsedOptions(commandLine.options)
        } catch {
            if exitCode(for: error) == .success { exit(withError: error) }  // --help, --version
            if let advice = PeerSpelling.firstAdvice(in: commandLine.options) {
                Diagnostics.report(advice.echoed)
                Foundation.exit(ExitStatus.badInput.rawValue)
            }
            let hint = error is ValidationError ? "" : " (see 'uploader --help')"
            // The parser puts each alternative reading on a line of its own
            // ("\n   or: …"): kept, on the one line a message has.
            let lines = message(for: error).split(separator: "\n").map { String($0).trimmingSpaces }
            let text = (lines.first ?? "") + lines.dropFirst().map { " (\($0))" }.joined()
            Diagnostics.report(text.echoed + hint)
            Foundation.exit(ExitStatus.badInput.rawValue)
        }
        // The kind of upload, decided once, and the options it takes.
        let kind: UploadKind
        do throws(InputError) {
            kind = try UploadKind(options: options, commandLine: commandLine)
            if let refusal = OptionRule.refusal(of: options, commandLine: commandLine, kind: kind) { throw refusal }
        } catch {
            Diagnostics.report(error.description)
            Foundation.exit(ExitStatus.badInput.rawValue)
        }
        if !options.dryRun {
            if let message = DescriptorBudget.shortfall(connections: kind.concurrentRequests(options)) {
                Diagnostics.report(message)
                Foundation.exit(ExitStatus.networkFailure.rawValue)
            }
        }
        // The task owns the command line from here (`consume`: this thread,
        // which waits in pause() below, keeps no copy of it).
        let handOff = CommandLineHandOff(consume commandLine)
        Task.detached {
            // --retry-max-time bounds every retry of the run, whichever
            // upload's loop makes it.
            let status = await RetryMiddleware(maximumTotalTime: options.retryBudget).withinBudget {
                CookieRun.finish(after: await kind.run(options, commandLine: handOff.take()), dryRun: options.dryRun)
            }
            Foundation.exit(status.rawValue)
        }
        // While the request is prepared (files sized and sniffed), this
        // thread starts the event loop and the client the request will need.
        if !options.dryRun, CommandTransport.usesProcessClient(options, concurrentRequests: kind.concurrentRequests(options)) {
            _ = CommandTransport.processClient
        }
        while true { pause() }  // until the task exits (or a signal ends the process)
    }
}

private extension String {
    /// The shell of `--generate-completion-script=SHELL`, as CommandLineSplit hands it on.
    var completionShell: String? {
        hasPrefix("--generate-completion-script=") ? String(dropFirst("--generate-completion-script=".count)) : nil
    }
}
