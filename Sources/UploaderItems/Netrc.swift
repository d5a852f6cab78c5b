
/// A `.netrc` file, read as curl reads it (`--netrc`, `--netrc-file`):
/// whitespace-separated tokens; the keywords `machine`, `default`, `login`,
/// `password`, `account` and `macdef` in any case; an entry (`machine NAME`
/// or `default`) runs to the next `machine`, `default` or `macdef`; a
/// `macdef` line and the lines after it, to the next empty line, are a
/// macro and never read; a value in double quotes may hold spaces and the
/// escapes `\"`, `\\`, `\n`, `\r` and `\t`.
///
/// Comments: a line whose first non-blank character is `#` is left out, as
/// every curl leaves it out; so is the rest of a line from a token that
/// starts with `#` where a keyword is expected (curl 7.x and 8.x before
/// 8.16), so a note after an entry never supplies a login. Where a value is
/// expected (`password #x`), the token is the value, as curl 8.16 reads it.
package struct Netrc {
    package struct Entry: Equatable {
        /// The host, lower-cased; `nil` for `default`.
        package var machine: String?
        package var login: String?
        package var password: String?

        /// An entry for `machine` (`nil`: `default`) with these values.
        package init(machine: String?, login: String? = nil, password: String? = nil) {
            self.machine = machine
            self.login = login
            self.password = password
        }
    }

    /// The entries, in the file's order.
    package var entries: [Entry]

    /// A quoted value that never ends: curl's "syntax error" in the file.
    package struct SyntaxError: Error, Equatable {
        /// The 1-based line the value starts on.
        package var line: Int

        /// The error for a quote opened on `line`.
        package init(line: Int) { self.line = line }
    }

    /// The entries of `text`.
    package init(parsing text: String) throws(SyntaxError) {
        var entries: [Entry] = []
        var lexer = Lexer(text)
        while let token = try lexer.next(expectingValue: false) {
            switch token.keyword {
            case "machine":
                let name = try lexer.next(expectingValue: true)
                entries.append(Entry(machine: name?.text.lowercased() ?? ""))
            case "default":
                entries.append(Entry(machine: nil))
            case "login", "password":
                let value = try lexer.next(expectingValue: true)?.text
                guard !entries.isEmpty, let value else { continue }
                if token.keyword == "login" { entries[entries.count - 1].login = value } else { entries[entries.count - 1].password = value }
            case "account":
                _ = try lexer.next(expectingValue: true)
            case "macdef":
                // A macro ends the entry before it; its lines are never read.
                entries.append(Entry(machine: ""))
                lexer.skipToEmptyLine()
            default:
                break  // a token curl does not know: skipped, as curl skips it
            }
        }
        // The placeholders that ended an entry at a macro match no host.
        self.entries = entries.filter { $0.machine != "" }
    }

    /// The first entry, in the file's order, that is `host`'s or `default`
    /// and holds a login or a password, as curl chooses.
    package func entry(forHost host: String) -> Entry? {
        let host = host.lowercased()
        return entries.first { ($0.machine == nil || $0.machine == host) && ($0.login != nil || $0.password != nil) }
    }

}
