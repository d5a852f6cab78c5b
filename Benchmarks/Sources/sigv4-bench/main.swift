// SigV4 payload hashing for compare.sh: the SHA-256 that SigV4Middleware
// signs, of a file body read once, as PayloadDigest.sha256(of:) computes it.
//
//     sigv4-bench hash FILE      prints the digest in hex (compare with `openssl dgst -sha256`)
//
// Wall time and CPU are taken by compare.sh around the process.
import AWSSigning
import Foundation
import HTTPBody

let arguments = CommandLine.arguments.dropFirst()
do {
    guard arguments.count == 2, arguments.first == "hash", let path = arguments.last else {
        throw CocoaError(.featureUnsupported, userInfo: [NSLocalizedDescriptionKey: "usage: sigv4-bench hash FILE"])
    }
    let digest = try await PayloadDigest.sha256(of: RequestBody.file(at: URL(filePath: path)))
    print(digest.hex)
} catch {
    FileHandle.standardError.write(Data("sigv4-bench: \(error)\n".utf8))
    exit(1)
}
