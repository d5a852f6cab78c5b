/// Sentences of the libraries that speak to a programmer ("send
/// credentials with .authorization(username:password:)"), as the command
/// says them to the person who typed it.
///
/// The libraries' errors are the programmer's; the tool reports them
/// whole, so the few that advise an API call are rewritten here, at the one
/// place every message passes (``Diagnostics/report(_:)``).
/// `LibraryAdviceTests` checks that each phrase still occurs in the
/// library's text, so a change there fails a test instead of reaching users.
enum LibraryAdvice {
    /// Each library phrase and the command's words for it.
    static let rewrites: [(library: String, command: String)] = [
        // The TLS settings the command's options set.
        (": add its issuer to TLSSettings.trustRoots", ": pass --cacert FILE"),
        ("(TLSSettings.verifiesServer = false skips verification)", "(--insecure skips verification)"),
        (": give one with TLSSettings.clientIdentity", ": pass --cert FILE (and --key FILE)"),
        // The command's bodies read once are standard input's.
        ("the body is read once (a stream)", "the body is read once (from standard input or a stream)"),
        // Only a server's Location reaches it: the URL argument's
        // credentials go into Authorization, and --resume-from and
        // --endpoint-url refuse them as bad input.
        (
            "The base URL has a user name or password; send credentials with .authorization(username:password:) instead",
            "the server gave an upload URL with a user name or password in it, which the tool does not follow (credentials go only where the command sends them); the upload was stopped"
        ),
        // The tool reads its own answers whole only where they are small
        // (a resumable or S3 step's answer); a main response streams to -o.
        (
            "; read it as a stream (RequestClient.stream) to handle any size",
            "; an answer to this step of an upload is never that large, so the upload was stopped"
        ),
    ]

    /// `message` with every library phrase in the command's words.
    static func rewriting(_ message: String) -> String {
        var message = message
        for rewrite in rewrites where message.contains(rewrite.library) {
            message = message.replacing(rewrite.library, with: rewrite.command)
        }
        return message
    }
}
