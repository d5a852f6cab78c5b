import ArgumentParser
import Foundation
import UploaderItems

/// `-a/--auth`, `--bearer` and `--netrc` (contract, "The real network
/// (version 6)", Authentication): what `Authorization` they send. An
/// `Authorization:` item wins over all of them, `-a` and `--bearer` over
/// credentials in the URL, and those over `--netrc`, as in curl.
extension UploaderOptions {
    /// What the credential options add to a resume state's command text,
    /// which only its SHA-256 digest keeps: nothing when none is given, so
    /// the states of earlier runs still match.
    var credentialsForDigest: [String] {
        [auth.map { "auth:\($0)" }, bearer.map { "bearer:\($0)" }, netrc ? "netrc" : nil].compactMap { $0 }
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

    /// `user:password` for `host` from the netrc file when `--netrc` is given.
    func netrcCredentials(forHost host: String, environment: [String: String] = ProcessInfo.processInfo.environment) throws(InputError) -> String? {
        guard netrc else { return nil }
        guard let file = try Netrc.load(path: Netrc.path(environment: environment)),
              let entry = file.entry(forHost: host), let login = entry.login else { return nil }
        return login + ":" + (entry.password ?? "")
    }

    /// The options' own conflicts, checked before anything runs.
    func validateAuthentication() throws {
        if auth != nil, bearer != nil {
            throw ValidationError("--auth and --bearer are two kinds of credentials; choose one")
        }
    }
}
