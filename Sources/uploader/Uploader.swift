import ArgumentParser

/// Placeholder root command until the contract in shared/specs/uploader-cli.md is built (issue 6).
@main
struct Uploader: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "uploader",
        abstract: "Upload files and send hand-built HTTP requests."
    )
}
