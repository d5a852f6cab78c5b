// Uploads a file to S3 (or an S3-compatible store) as a parallel multipart
// upload, keeping its state in FILE.s3-state: interrupt it (Ctrl-C) and run
// it again, and it sends only the parts the store does not hold. With
// --presigned-post it fills a presigned POST form (boto3's
// generate_presigned_post JSON) instead, and needs no credentials.
//
//     AWS_ACCESS_KEY_ID=… AWS_SECRET_ACCESS_KEY=… swift run s3-upload s3://bucket/key big.bin [ENDPOINT]
//     swift run s3-upload --presigned-post form.json photo.jpg
import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import NIOPosix
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("s3-upload: \(message)\n".utf8))
    exit(1)
}

let arguments = Array(CommandLine.arguments.dropFirst())
// Four parts at a time need no more than one event loop; the transport
// waits for its loops between body chunks, so one loop wakes one thread.
let transport: AsyncHTTPClientTransport
do {
    transport = try AsyncHTTPClientTransport(tls: .fromEnvironment(), eventLoopGroup: MultiThreadedEventLoopGroup(numberOfThreads: 1))
} catch {
    fail("\(error)")
}

do {
    if arguments.count == 3, arguments[0] == "--presigned-post" {
        let post = try PresignedPost(json: Data(contentsOf: URL(filePath: arguments[1])))
        let request = try post.request(fileAt: URL(filePath: arguments[2])).build()
        let response = try await RequestClient(transport: transport).send(request)
        print("the store answered \(response.status.code)")
        exit(0)
    }
    guard (2...3).contains(arguments.count) else {
        fail("usage: s3-upload s3://BUCKET/KEY FILE [ENDPOINT] | s3-upload --presigned-post FORM.json FILE")
    }
    let location = try S3Location(arguments[0])
    let file = URL(filePath: arguments[1])
    let region = ProcessInfo.processInfo.environment["AWS_REGION"] ?? "us-east-1"
    let endpoint = arguments.count == 3 ? URL(string: arguments[2]).map { S3Endpoint(url: $0, region: region) } : .aws(region: region)
    guard let endpoint else { fail("'\(arguments[2])' is not a URL") }
    let s3 = S3Client(endpoint: endpoint, credentials: try .environment(), transport: transport)

    let stateFile = URL(filePath: arguments[1] + ".s3-state")
    let saved = try? JSONDecoder().decode(S3MultipartUpload.State.self, from: Data(contentsOf: stateFile))
    var upload = try S3MultipartUpload(body: .file(at: file), to: location, partSize: 8 << 20, concurrency: 4)
    upload.abortsOnFailure = false  // keep the parts, to resume by running again
    let result = try await upload.send(with: s3, resumingFrom: saved, stateChanged: { state in
        try JSONEncoder().encode(state).write(to: stateFile, options: .atomic)
    }, progress: { progress in
        guard let fraction = progress.fractionCompleted else { return }
        FileHandle.standardError.write(Data("\r\(Int(fraction * 100))% of \(progress.totalBytes ?? 0) bytes".utf8))
    })
    try? FileManager.default.removeItem(at: stateFile)
    print("\nuploaded \(result.location), ETag \(result.eTag ?? "?"), \(result.partsResumed) parts resumed")
} catch {
    fail("\(error)")
}
