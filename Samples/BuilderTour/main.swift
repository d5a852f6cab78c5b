// The fluent builder, for requests not worth an endpoint type. Every call
// returns a new value, so a base request can be shared and extended.
//
// Run with `swift run builder-tour`.

import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

struct NewPost: Encodable, Sendable {
    var userId: Int
    var title: String
    var body: String
}

/// Prints a request as HTTP/1.1 would send it, escaping bytes that are not printable text.
func show(_ title: String, _ request: HTTPRequestBuilder) async {
    print("### \(title)")
    do {
        let prepared = try request.build()
        let bytes = try await prepared.raw().collect()
        var text = ""
        for scalar in String(decoding: bytes, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\r": continue
            case "\n", " "..."~": text.unicodeScalars.append(scalar)
            default: text += "\\u{\(String(scalar.value, radix: 16))}"
            }
        }
        print(text)
        print("as curl: \(await prepared.curlCommand())")
    } catch {
        print("error: \(error)")
    }
    print()
}

let api = HTTPRequestBuilder.get("https://jsonplaceholder.typicode.com")
    .accept(.json)
    .userAgent("BuilderTour/1.0")

await show("Query parameters", api.path("posts").query("userId", "1").query("q", "swift & linux"))
await show(
    "JSON body, gzip-compressed",
    api.method(.post).path("posts").bearer("sample-token").json(NewPost(userId: 1, title: "Hello", body: "First post")).gzip()
)
await show("Form body", api.method(.post).path("oauth", "token").form([("grant_type", "client_credentials"), ("scope", "read write")]))
await show(
    "Multipart with query parameters",
    api.method(.post).path("albums", "7", "photos").query("resize", "1024")
        .multipart(boundary: (try? .constant("sample-boundary-1234567890")) ?? .random()) { form in
            form.append("Sunset", name: "title")
            form.append(Data([0x89, 0x50, 0x4E, 0x47]), name: "photo", filename: "sunset.png", contentType: MediaType("image/png"))
        }
)
await show("A bad header is reported, not sent", api.path("posts").header("X-Trace", "abc\r\nInjected: yes"))
