// Uploads one file as a multipart form through `URLSessionTransport`, as
// upload-form does through AsyncHTTPClient, and prints the process's peak
// resident memory (VmHWM) on Linux: how docs/notes/transports.md measures
// what a large body costs with URLSession.
//
//     swift run sink-server &
//     truncate -s 1G big.bin
//     swift run -c release upload-form-urlsession http://127.0.0.1:8080/upload big.bin
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderURLSession

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, let url = URL(string: arguments[0]) else {
    FileHandle.standardError.write(Data("usage: upload-form-urlsession URL FILE\n".utf8))
    exit(64)
}
let file = URL(filePath: arguments[1])
do {
    let request = try HTTPRequestBuilder(.post, url)
        .multipart { form in try form.appendFile(at: file, name: "file", contentType: .octetStream) }
        .build()
    let response = try await RequestClient(transport: URLSessionTransport()).send(request)
    print("status \(response.status.code)")
    // The kernel's peak resident set for this process, as /usr/bin/time reports it.
    if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
       let peak = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) {
        print(peak)
    }
} catch {
    FileHandle.standardError.write(Data("upload-form-urlsession: \(error)\n".utf8))
    exit(1)
}
