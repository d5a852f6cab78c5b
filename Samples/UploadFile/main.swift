// Uploads one file through the AsyncHTTPClient transport and reports the
// throughput; used to measure the 1 GiB upload against `curl` (see README).
//
//     swift run -c release upload-file http://127.0.0.1:8080/upload big.bin
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 2, let url = URL(string: arguments[arguments.startIndex]) else {
    FileHandle.standardError.write(Data("usage: upload-file URL FILE\n".utf8))
    exit(64)
}
let file = URL(filePath: arguments[arguments.startIndex + 1])
do {
    // An explicit type skips content sniffing (libmagic would load its 6 MiB database).
    let request = try HTTPRequestBuilder(.post, url).file(at: file, contentType: .octetStream).build()
    let clock = ContinuousClock()
    let start = clock.now
    // UPLOAD_CHUNK_SIZE overrides the transport's chunk size, for measuring.
    let chunkSize = ProcessInfo.processInfo.environment["UPLOAD_CHUNK_SIZE"].flatMap(Int.init)
    let transport = chunkSize.map { AsyncHTTPClientTransport(chunkSize: $0) } ?? AsyncHTTPClientTransport()
    let response = try await RequestClient(transport: transport).send(request)
    let elapsed = clock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    let bytes = Double(request.body?.length ?? 0)
    print("status \(response.status.code), \(Int(bytes)) bytes in \(String(format: "%.3f", seconds)) s, \(String(format: "%.2f", bytes / seconds / 1e9)) GB/s")
} catch {
    FileHandle.standardError.write(Data("upload-file: \(error)\n".utf8))
    exit(1)
}
