import Foundation
import Testing

/// What Tab offers in bash, zsh and fish, each started in a real terminal
/// (tmux) with the script `uploader --generate-completion-script SHELL`
/// prints: option names, file names wherever a path is taken (an option's
/// value, `name@path`, `-F name=@path`), `--pretty`'s styles, and no
/// subcommand that does not exist.
@Suite(.serialized, .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/tmux")))
struct UploaderCompletionTerminalTests {
    /// One shell in a tmux session of its own, in a folder of test files.
    final class Session {
        let name = "uploader-completion-\(UUID().uuidString.prefix(8))"
        let scratch: ScratchFolder

        init(shell: String) async throws {
            scratch = try ScratchFolder()
            try scratch.file("notes.txt", "n")
            try scratch.file("other.bin", "o")
            try FileManager.default.createDirectory(at: scratch.url.appending(path: "photos"), withIntermediateDirectories: true)
            let script = scratch.url.appending(path: "completion.\(shell)").path
            let made = try await UploaderProcess.runShell("\"$UPLOADER\" --generate-completion-script \(shell) > '\(script)'")
            #expect(made.status == 0)
            let bin = UploaderProcess.executable.deletingLastPathComponent().path
            let command: String
            let setup: String
            switch shell {
            case "bash": (command, setup) = ("bash --norc --noprofile", "source '\(script)'")
            case "zsh": (command, setup) = ("zsh -f", "autoload -U compinit && compinit -u && source '\(script)'")
            default: (command, setup) = ("fish --no-config", "source '\(script)'")
            }
            try await Self.tmux("new-session -d -s \(name) -x 160 -y 40 -c '\(scratch.url.path)' \"env PATH='\(bin)':\\$PATH TERM=xterm \(command)\"")
            try await Task.sleep(for: .milliseconds(500))
            try await type(setup, enter: true)
        }

        static func tmux(_ arguments: String) async throws {
            let result = try await UploaderProcess.runShell("/usr/bin/tmux \(arguments)")
            #expect(result.status == 0, "tmux \(arguments): \(result.standardError)")
        }

        /// Types `text` (and Enter), leaving the line as the shell has it.
        func type(_ text: String, enter: Bool = false) async throws {
            try await Self.tmux("send-keys -t \(name) -l '\(text.replacingOccurrences(of: "'", with: "'\\''"))'")
            if enter { try await Self.tmux("send-keys -t \(name) Enter") }
            try await Task.sleep(for: .milliseconds(300))
        }

        /// Presses Tab `times` times and returns the screen once it shows
        /// `expected` (or after 5 s, for a test that expects nothing).
        func tab(_ times: Int = 1, until expected: String? = nil) async throws -> String {
            for _ in 0..<times { try await Self.tmux("send-keys -t \(name) Tab") }
            var screen = ""
            for _ in 0..<25 {
                try await Task.sleep(for: .milliseconds(200))
                screen = try await UploaderProcess.runShell("/usr/bin/tmux capture-pane -p -t \(name)").outputText
                if let expected, screen.contains(expected) { break }
            }
            return screen
        }

        /// Clears the line for the next case.
        func clearLine() async throws {
            try await Self.tmux("send-keys -t \(name) C-c")
            try await Task.sleep(for: .milliseconds(300))
        }

        func close() async throws { try await Self.tmux("kill-session -t \(name)") }
    }

    @Test(arguments: ["bash", "zsh", "fish"])
    func tabCompletesOptionsFilesAndValues(shell: String) async throws {
        let session = try await Session(shell: shell)
        try await session.type("uploader --outp")
        #expect(try await session.tab(until: "uploader --output").contains("uploader --output"))
        try await session.clearLine()
        try await session.type("uploader :8080/up f@not")
        #expect(try await session.tab(until: "f@notes.txt").contains("f@notes.txt"), "\(shell): name@path")
        try await session.clearLine()
        try await session.type("uploader :8080/up -F f=@oth")
        #expect(try await session.tab(until: "f=@other.bin").contains("f=@other.bin"), "\(shell): -F name=@path")
        try await session.clearLine()
        try await session.type("uploader -o not")
        #expect(try await session.tab(until: "-o notes.txt").contains("-o notes.txt"), "\(shell): -o FILE")
        try await session.clearLine()
        try await session.type("uploader --pretty fo")
        #expect(try await session.tab(until: "--pretty format").contains("--pretty format"), "\(shell): --pretty")
        try await session.clearLine()
        try await session.type("uploader ")
        let offered = try await session.tab(2)
        #expect(!offered.contains("help"), "\(shell) offers a subcommand: \(offered)")
        #expect(!offered.contains("doubled rest argument"), "\(shell): \(offered)")
        #expect(offered.contains("notes.txt"), "\(shell): \(offered)")
        try await session.close()
    }
}
