import Foundation
import UploaderItems

/// Turns the URL argument into a full `http`/`https` URL, as HTTPie does:
/// `localhost:8080/up` means `http://localhost:8080/up`, and `:8080/up`
/// means `http://localhost:8080/up`.
enum TargetURL {
    static func parse(_ text: String) throws(InputError) -> URL {
        var candidate = text
        if candidate.hasPrefix(":") { candidate = "localhost" + candidate }
        let lowered = candidate.lowercased()
        if !lowered.hasPrefix("http://"), !lowered.hasPrefix("https://") {
            if lowered.contains("://") {
                throw InputError("'\(text)': only http:// and https:// URLs are supported")
            }
            candidate = "http://" + candidate
        }
        guard let components = URLComponents(string: candidate),
              let host = components.host, !host.isEmpty,
              let url = components.url
        else {
            throw InputError("'\(text)' is not a valid URL; percent-encode spaces and other reserved characters (for example http://localhost:8080/upload)")
        }
        if components.path.isEmpty, var withPath = URLComponents(url: url, resolvingAgainstBaseURL: false) {
            withPath.path = "/"
            return withPath.url ?? url
        }
        return url
    }
}
