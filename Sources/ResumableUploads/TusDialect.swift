import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

/// tus 1.0's side of ``ResumeEngine``: `HEAD` for the offset (its
/// `Upload-Length` checked against the body), `PATCH` chunks with the
/// checksum extension when the server offers it, and the last chunk's
/// answer as the upload's.
struct TusDialect: ResumeDialect {
    /// Carries the caller's fields and timeout into every request.
    let base: PreparedRequest
    let body: RequestBody
    /// How each chunk's digest is sent, when the server checks one.
    let checksum: TusChecksum?

    static let fields: HTTPFields = [.tusResumable: TusUpload.protocolVersion]

    var serverName: String { "The tus server" }

    func offsetRequest(at url: URL) throws -> PreparedRequest {
        try base.continuation(.head, to: url, fields: Self.fields)
    }

    func offset(in response: Response, length: Int64) throws -> Int64 {
        if let serverLength = response.headerFields[.uploadLength], Int64(serverLength) != length {
            throw ResumableUploadError.bodyChanged("the server's upload is \(serverLength) bytes long and the body \(length)")
        }
        return try UploadOffset.read(from: response.head, length: length)
    }

    func appendRequest(to url: URL, range: Range<Int64>, length: Int64) async throws -> PreparedRequest {
        var fields = Self.fields
        fields[.uploadOffset] = String(range.lowerBound)
        fields[.contentType] = "application/offset+octet-stream"
        let chunk = try body.slice(range)
        if let checksum {
            fields[.uploadChecksum] = try await checksum.fieldValue(for: chunk)
        }
        return try base.continuation(.patch, to: url, fields: fields, body: chunk)
    }

    func answer(to head: StreamedResponse, range: Range<Int64>, length: Int64) async throws -> AppendAnswer {
        let response = try await head.collect()
        if response.status.kind == .successful { return .accepted(response) }
        return .refused(RequestError(code: .unacceptableStatus, description: "The tus server answered \(response.status.code) \(response.status.reasonPhrase) to a chunk at offset \(range.lowerBound)", response: response))
    }

    /// A `460` (the chunk's checksum is wrong) is answered by asking for the
    /// offset and sending the chunk again, as a dropped connection is.
    func retryable(_ failure: any Error) -> any Error {
        if let status = (failure as? RequestError)?.response?.status.code, status == 460 {
            return RequestError(code: .transport, description: "The tus server found the chunk's checksum wrong (460)")
        }
        return failure
    }
}
