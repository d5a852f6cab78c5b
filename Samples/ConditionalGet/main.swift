// Fetches a URL twice through `.conditionalRequests()`: the second request
// carries the first answer's ETag or Last-Modified, and a `304 Not Modified`
// comes back to this code as the kept `200` and body. The logging middleware
// sits inside it, so its lines (on standard error) show what the server said.
//
//     swift run conditional-get https://www.example.com/
//     (or any file served by `python3 -m http.server`, which answers 304)
import Foundation
import HTTPTypes
import Logging
import RequestBuilder
import RequestBuilderAsyncHTTPClient

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let url = URL(string: arguments[arguments.startIndex]) else {
    FileHandle.standardError.write(Data("usage: conditional-get URL\n".utf8))
    exit(64)
}
var logger = Logger(label: "conditional-get") { label in StreamLogHandler.standardError(label: label) }
logger.logLevel = Logger.Level.info
do {
    let request = try HTTPRequestBuilder(.get, url).build()
    let client = RequestClient(
        transport: AsyncHTTPClientTransport(),
        middleware: [.conditionalRequests(), .logging(to: logger)]
    )
    for attempt in ["first", "second"] {
        let response = try await client.send(request)
        let validator = response.etag.map { "ETag \($0)" } ?? response.headerFields[HTTPField.Name.lastModified].map { "Last-Modified \($0)" } ?? "no validator"
        print("\(attempt): \(response.status.code), \(response.body.count) bytes, \(validator)")
    }
} catch {
    FileHandle.standardError.write(Data("conditional-get: \(error)\n".utf8))
    exit(1)
}
