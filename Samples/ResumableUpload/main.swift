// Uploads a file resumably (the IETF draft, or tus with --tus), keeping the
// state in FILE.upload-state: interrupt it (Ctrl-C) and run it again, and it
// continues from the bytes the server holds.
//
//     swift run resumable-upload http://127.0.0.1:8080/files/big.bin big.bin
//     swift run resumable-upload --tus http://127.0.0.1:1080/files/ big.bin
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import ResumableUploads

var arguments = Array(CommandLine.arguments.dropFirst())
let usesTus = arguments.first == "--tus"
if usesTus { arguments.removeFirst() }
guard arguments.count == 2, let url = URL(string: arguments[0]) else {
    FileHandle.standardError.write(Data("usage: resumable-upload [--tus] URL FILE\n".utf8))
    exit(64)
}
let file = URL(filePath: arguments[1])
let stateFile = URL(filePath: arguments[1] + ".upload-state")
let client = RequestClient(transport: AsyncHTTPClientTransport())
let saved = try? JSONDecoder().decode(ResumableUploadState.self, from: Data(contentsOf: stateFile))
if let saved { print("resuming \(saved.uploadURL) from byte \(saved.offset)") }

// Saved before the first body byte goes out, and again as parts are confirmed.
let save: @Sendable (ResumableUploadState) throws -> Void = { state in
    try JSONEncoder().encode(state).write(to: stateFile, options: .atomic)
}
let report: @Sendable (UploadProgress) -> Void = { progress in
    guard let fraction = progress.fractionCompleted else { return }
    FileHandle.standardError.write(Data("\r\(Int(fraction * 100))% of \(progress.totalBytes ?? 0) bytes".utf8))
}
do {
    if usesTus {
        let upload = try TusUpload(creationURL: url, body: .file(at: file), metadata: [("filename", file.lastPathComponent)])
        let result = try await upload.send(with: client, resumingFrom: saved, stateChanged: save, progress: report)
        print("\nuploaded to \(result.uploadURL)")
    } else {
        let request = try HTTPRequestBuilder(.post, url).file(at: file).build()
        let response = try await ResumableUpload(request).send(with: client, resumingFrom: saved, stateChanged: save, progress: report)
        print("\nthe server answered \(response.status.code)")
    }
    try? FileManager.default.removeItem(at: stateFile)
} catch {
    FileHandle.standardError.write(Data("\nresumable-upload: \(error)\n".utf8))
    exit(1)
}
