import Foundation
import UploaderItems

/// `-a USER`'s question: the password, read from the terminal without echo,
/// as curl asks for it. With no terminal to ask on (a script, a pipe) it is
/// bad input rather than a wait on a read that no one will answer.
enum PasswordPrompt {
    /// The password typed for `user`, the line's end dropped.
    static func password(for user: String) throws(InputError) -> String {
        guard isatty(STDIN_FILENO) == 1 else {
            throw InputError(.conflictingInput, "-a \(user.echoed): the password is asked for on the terminal, and standard input is not one; give -a USER:PASSWORD")
        }
        OutputFile.standardError.writeText("Enter password for user '\(user.escapedForMessage)': ")
        var original = termios()
        let canSilence = tcgetattr(STDIN_FILENO, &original) == 0
        if canSilence {
            var silent = original
            silent.c_lflag &= ~tcflag_t(ECHO)
            tcsetattr(STDIN_FILENO, TCSANOW, &silent)  // TCSANOW: a password typed ahead is kept
        }
        defer {
            if canSilence { tcsetattr(STDIN_FILENO, TCSANOW, &original) }
            OutputFile.standardError.writeText("\n")  // the Enter typed was not echoed
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while true {
            let count = read(STDIN_FILENO, &byte, 1)
            if count < 0, errno == EINTR { continue }
            if count <= 0 || byte == UInt8(ascii: "\n") { break }
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
