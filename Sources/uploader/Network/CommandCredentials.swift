import Foundation
import UploaderItems

/// `-a/--auth`, `--bearer` and `--netrc`, `--netrc-file`, `--netrc-optional`:
/// what `Authorization` they send. An `Authorization:` item wins over all
/// of them, `-a` and `--bearer` over credentials in the URL, and those over
/// `--netrc`, as in curl.
struct CommandCredentials {
    let auth: String?
    let bearer: String?
    let netrc: Bool
    let netrcFile: String?
    let netrcOptional: Bool

    init(_ options: UploaderOptions) {
        (auth, bearer, netrc, netrcFile, netrcOptional) = (options.auth, options.bearer, options.netrc, options.netrcFile, options.netrcOptional)
    }

    /// What the credential options add to a resume state's command text,
    /// which only its SHA-256 digest keeps: nothing when none is given, so
    /// the states of earlier runs still match.
    var forDigest: [String] {
        [auth.map { "auth:\($0)" }, bearer.map { "bearer:\($0)" }, netrc ? "netrc" : nil, netrcFile.map { "netrc-file:\($0)" }, netrcOptional ? "netrc-optional" : nil].compactMap { $0 }
    }

    /// `Authorization` from `-a` or `--bearer`, if either is given; `-a
    /// USER` asks for the password now.
    func explicitAuthorization() throws(InputError) -> String? {
        if let bearer {
            return "Bearer \(bearer)"
        }
        guard let auth else { return nil }
        let credentials = auth.contains(":" as Character) ? auth : auth + ":" + (try PasswordPrompt.password(for: auth))
        return "Basic " + Data(credentials.utf8).base64EncodedString()
    }

    /// `user:password` for `host` from the netrc file, as curl takes it:
    /// `--netrc-file FILE` names the file (missing: an error, unless
    /// `--netrc-optional`), `--netrc` or `--netrc-optional` alone read
    /// `$NETRC` or `~/.netrc` (missing: no credentials). An entry with a
    /// password and no login sends nothing, as there is no user to send.
    func netrcCredentials(forHost host: String, environment: [String: String] = ProcessEnvironment.variables) throws(InputError) -> String? {
        let loaded: Netrc?
        if let netrcFile {
            loaded = try Netrc.load(path: netrcFile, option: "--netrc-file", required: !netrcOptional)
        } else if netrc || netrcOptional {
            loaded = try Netrc.load(path: Netrc.path(environment: environment))
        } else {
            return nil
        }
        guard let entry = loaded?.entry(forHost: host), let login = entry.login else { return nil }
        return login + ":" + (entry.password ?? "")
    }
}
