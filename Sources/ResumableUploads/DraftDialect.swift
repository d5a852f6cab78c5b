import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

/// The IETF draft's side of ``ResumeEngine``: `HEAD` for the offset, `PATCH`
/// appends marked complete or not, and the complete request's answer passed
/// on as the application's.
struct DraftDialect: ResumeDialect {
    /// The request being uploaded.
    let request: PreparedRequest
    let version: ResumableUpload.DraftVersion

    var serverName: String { "The server" }

    var versionFields: HTTPFields {
        [.uploadDraftInteropVersion: String(version.rawValue)]
    }

    func offsetRequest(at url: URL) throws -> PreparedRequest {
        try request.continuation(.head, to: url, fields: versionFields)
    }

    func offset(in response: Response, length: Int64) throws -> Int64 {
        try UploadOffset.read(from: response.head, length: length)
    }

    /// An append of the body's bytes in `range`, complete when it reaches the end.
    func appendRequest(to url: URL, range: Range<Int64>, length: Int64) throws -> PreparedRequest {
        var fields = versionFields
        let isLast = range.upperBound == length
        fields[.uploadOffset] = String(range.lowerBound)
        switch version {
        case .v3: fields[.uploadIncomplete] = isLast ? "?0" : "?1"
        case .v5: fields[.uploadComplete] = isLast ? "?1" : "?0"
        case .v6:
            fields[.uploadComplete] = isLast ? "?1" : "?0"
            fields[.contentType] = "application/partial-upload"
        }
        let slice = try request.body?.slice(range) ?? RequestBody.bytes([], contentType: nil)
        return try request.continuation(.patch, to: url, fields: fields, body: slice)
    }

    func answer(to head: StreamedResponse, range: Range<Int64>, length: Int64) async throws -> AppendAnswer {
        if range.upperBound == length, head.status.code != 409 {
            // The complete request's answer is the application's: passed on
            // as it is. Once its head has arrived the attempt is final, even
            // if its body then breaks: the server may have acted on the
            // complete upload.
            let response: Response
            do {
                response = try await head.collect()
            } catch {
                throw AnsweredAttemptFailed(error)
            }
            return .final(try response.validated(by: request.acceptableStatus))
        }
        let response = try await head.collect()
        if response.status.kind == .successful { return .accepted(response) }
        return .refused(RequestError(code: .unacceptableStatus, description: "The server answered \(response.status.code) \(response.status.reasonPhrase) to an append at offset \(range.lowerBound)", response: response))
    }
}
