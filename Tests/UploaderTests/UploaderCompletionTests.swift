import Testing

/// `uploader --generate-completion-script SHELL` (docs/uploader.md, "Man
/// page and shell completion"; Scripts/install-extras.sh installs what it
/// prints): each shell gets its own script, naming the declared options.
@Suite struct UploaderCompletionTests {
    @Test(arguments: [("bash", "-F _uploader uploader"), ("zsh", "#compdef uploader"), ("fish", "complete -c uploader -f")])
    func eachShellGetsItsOwnScript(shell: String, marker: String) async throws {
        for arguments in [["--generate-completion-script", shell], ["--generate-completion-script=\(shell)"]] {
            let result = try await UploaderProcess.run(arguments)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            #expect(result.outputText.contains(marker), "\(arguments): \(result.outputText.prefix(300))")
            for option in ["pretty", "recursive", "endpoint-url", "form-part"] {
                #expect(result.outputText.contains(option), "\(arguments): no \(option)")
            }
        }
    }
}
