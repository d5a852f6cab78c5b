// Downloads a URL to a file through the AsyncHTTPClient transport, the body
// streamed to disk as it arrives: memory stays flat however large it is.
// The file is created only once the server has answered with a 2xx head.
//
//     swift run download-file http://127.0.0.1:8080/big.bin big.bin
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let url = URL(string: arguments[arguments.startIndex]) else {
    FileHandle.standardError.write(Data("usage: download-file URL FILE\n".utf8))
    exit(64)
}
let path = arguments[arguments.startIndex + 1]
do {
    let request = try HTTPRequestBuilder.get(url.absoluteString).build()
    // Retries connection failures and 5xx; once a head arrives, the download is final.
    let client = RequestClient(transport: AsyncHTTPClientTransport(), middleware: [.retry()])
    let response = try await client.stream(request)
    guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
        FileHandle.standardError.write(Data("download-file: cannot create \(path)\n".utf8))
        exit(1)
    }
    var received = 0
    for try await chunk in response.body {
        try file.write(contentsOf: chunk)
        received += chunk.count
    }
    try file.close()
    print("status \(response.status.code) \(response.status.reasonPhrase), \(received) bytes written to \(path)")
} catch {
    FileHandle.standardError.write(Data("download-file: \(error)\n".utf8))
    exit(1)
}
