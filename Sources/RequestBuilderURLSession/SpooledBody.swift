#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif
import HTTPBody
import HTTPTypes
import RequestBuilder

/// A body written out to a temporary file so URLSession can upload it from there.
struct SpooledBody {
    let url: URL
    let length: Int64

    /// Writes the body out; past `limit` bytes it stops, with `length` one
    /// chunk over the limit, so a body of unknown length is never staged whole
    /// only to be refused.
    static func write(_ body: RequestBody, for request: PreparedRequest, in directory: URL, upTo limit: Int64? = nil) async throws -> SpooledBody {
        let url = directory
            .appending(path: "RequestBuilder-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path(percentEncoded: false), contents: nil),
              let handle = try? FileHandle(forWritingTo: url)
        else {
            throw RequestError.invalidRequest("The body of \(request.describedTarget) could not be staged: cannot create \(url.path(percentEncoded: false))")
        }
        var length: Int64 = 0
        do {
            defer { try? handle.close() }
            for try await chunk in body.chunks() {
                try Task.checkCancellation()
                try handle.write(contentsOf: chunk)
                length += Int64(chunk.count)
                if let limit, length > limit { break }
            }
        } catch {
            try? FileManager.default.removeItem(at: url)
            // A cancelled stream may end early and look like a short body: report the cancellation.
            if error is CancellationError || Task.isCancelled { throw RequestError.cancelled(request) }
            throw RequestError.body(request, "\(error) (while staging it in \(url.path(percentEncoded: false)))", underlying: error)
        }
        return SpooledBody(url: url, length: length)
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}
