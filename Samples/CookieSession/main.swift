// Fetches a URL twice through `.cookies(store)`: the cookies the first
// answer sets (and any a redirect sets on the way) go with the second
// request, by RFC 6265's rules, and the jar is printed in curl's format at
// the end (the values hidden: a cookie is a credential).
//
//     swift run cookie-session https://www.example.com/
//     (or http://127.0.0.1:8080/ with any server that sets a cookie)
import Foundation
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let url = URL(string: arguments[arguments.startIndex]) else {
    FileHandle.standardError.write(Data("usage: cookie-session URL\n".utf8))
    exit(64)
}
do {
    let cookies = InMemoryCookieStore()
    let client = RequestClient(transport: AsyncHTTPClientTransport(), middleware: [.followingRedirects(), .cookies(cookies)])
    let request = try HTTPRequestBuilder(.get, url).build()
    for attempt in ["first", "second"] {
        let response = try await client.send(request)
        let sent = cookies.snapshot().cookies(for: url).map(\.name)
        print("\(attempt): \(response.status.code); cookies for the next request: \(sent.isEmpty ? "none" : sent.joined(separator: ", "))")
    }
    for cookie in cookies.snapshot().cookies {
        let scope = cookie.isHostOnly ? cookie.domain : "." + cookie.domain + " and below"
        print("\(cookie.name) for \(scope)\(cookie.path), \(cookie.expires.map { "until \($0)" } ?? "for the session")\(cookie.isSecure ? ", https only" : "")")
    }
} catch {
    FileHandle.standardError.write(Data("cookie-session: \(error)\n".utf8))
    exit(1)
}
