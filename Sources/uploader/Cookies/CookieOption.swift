import Foundation
import RequestBuilder
import UploaderItems

/// `-b/--cookie`'s value, read as curl reads it: text with `=` in it is
/// sent as the `Cookie` field as it is; anything else names a cookie file
/// (curl's Netscape format, `Set-Cookie:` lines, or both), which may be
/// missing (curl then starts with no cookies, so `-b jar -c jar` works on
/// the first run).
enum CookieOption {
    /// What `-b` gives.
    enum Value {
        /// `name=value; n2=v2`, sent as given.
        case field(String)
        /// The cookies in the named file.
        case jar(CookieJar)
    }

    /// Reads `-b`'s value; `url` is the request's, which `Set-Cookie:`
    /// lines in a file are taken as answering.
    static func read(_ value: String, url: URL) throws(InputError) -> Value {
        if value.contains("=" as Character) { return .field(value) }
        guard value != "-" else {
            throw InputError(.unusableFile, "-b -: cookies from standard input are not read here; give a cookie file, or name=value")
        }
        return .jar(try jar(at: value, option: "-b/--cookie", url: url))
    }

    /// The cookie file at `path`, empty when there is none.
    static func jar(at path: String, option: String, url: URL) throws(InputError) -> CookieJar {
        let text: String
        do {
            text = try PrivateFile.text(at: path)
        } catch {
            switch error {
            case .missing: return CookieJar()
            case .unreadable(let reason):
                throw InputError(.unusableFile, "\(option): the cookie file \(path.echoed) cannot be read: \(reason)")
            case .tooLarge:
                throw InputError(.unusableFile, "\(option): the cookie file \(path.echoed) is larger than 16 MiB, too large for a cookie file")
            }
        }
        do {
            return try CookieJar(netscapeFormat: text, setCookieLinesFrom: url)
        } catch {
            throw InputError(.unusableFile, "\(option): the cookie file \(path.echoed), \(error.description.echoed)")
        }
    }
}
