// Uploads one file as a multipart form, exactly as the README sends one:
// `RequestClient(transport: AsyncHTTPClientTransport())`, so the client is the
// shared one on NIO's singleton group (one event loop per core) and the part's
// type is sniffed from its content. Benchmarks/compare.sh measures it beside
// `curl -F`. Prints the response status; with UPLOAD_MEMORY set, also where
// the process's memory is at each stage (Linux).
//
//     swift run -c release upload-form http://127.0.0.1:8080/upload big.bin
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient

let arguments = Array(CommandLine.arguments.dropFirst())
guard arguments.count == 2, let url = URL(string: arguments[0]) else {
    writeError("usage: upload-form URL FILE\n")
    exit(64)
}
let file = URL(filePath: arguments[1])
MemoryReport.note("start")
do {
    let request = try HTTPRequestBuilder(.post, url)
        .multipart { form in try form.appendFile(at: file, name: "file") }
        .build()
    MemoryReport.note("built (file sized and sniffed)")
    let transport = AsyncHTTPClientTransport()
    MemoryReport.note("transport made")
    let response = try await RequestClient(transport: transport).send(request)
    MemoryReport.note("sent")
    print("status \(response.status.code)")
} catch {
    writeError("upload-form: \(error)\n")
    exit(1)
}

/// Writes `text` to standard error (write(2): FileHandle would link the whole
/// of Foundation on Linux, which the libraries no longer need).
func writeError(_ text: String) {
    var text = text
    text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
}
