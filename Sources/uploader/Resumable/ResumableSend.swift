import Foundation
import RequestBuilder
import ResumableUploads

/// One of the two protocols, behind one interface for the command.
enum ResumableSend {
    case draft(ResumableUpload)
    case tus(TusUpload)

    struct Outcome {
        var response: Response
        /// tus's upload URL, printed when the server sent no body.
        var uploadURL: URL?
    }

    func firstRequest(resumingFrom state: ResumableUploadState?) throws -> PreparedRequest {
        switch self {
        case .draft(let upload): try upload.firstRequest(resumingFrom: state)
        case .tus(let upload): try upload.firstRequest()
        }
    }

    /// The state `--resume-from URL` names: the saved one moved to `url`, or
    /// a new one whose offset the server will tell.
    func state(at url: URL, saved: ResumableUploadState?) -> ResumableUploadState {
        if var saved {
            saved.uploadURL = url
            return saved
        }
        switch self {
        case .draft(let upload):
            return ResumableUploadState(uploadProtocol: .draft, uploadURL: url, offset: 0, body: upload.bodyIdentity, draftVersion: upload.version.rawValue)
        case .tus(let upload):
            return ResumableUploadState(uploadProtocol: .tus, uploadURL: url, offset: 0, body: upload.bodyIdentity)
        }
    }

    /// The upload with its retry waits noted on standard error, terminal or not.
    func explainingWaits(bar: ProgressBar?, retries: Int, within budget: Duration?) -> ResumableSend {
        let policy = RetryMiddleware(maximumAttempts: retries + 1, maximumTotalTime: budget, willRetry: { retry in
            bar?.clear()
            Diagnostics.report("\(retry.reason); resuming in \(retry.delay.waitDescription) (attempt \(retry.attempt) of \(retries + 1))")
        })
        switch self {
        case .draft(var upload):
            upload.retry = policy
            return .draft(upload)
        case .tus(var upload):
            upload.retry = policy
            return .tus(upload)
        }
    }

    func send(
        with client: RequestClient,
        resumingFrom state: ResumableUploadState?,
        stateChanged: @escaping @Sendable (ResumableUploadState) async throws -> Void,
        progress: @escaping @Sendable (UploadProgress) -> Void
    ) async throws -> Outcome {
        switch self {
        case .draft(let upload):
            let response = try await upload.send(with: client, resumingFrom: state, stateChanged: stateChanged, progress: progress)
            return Outcome(response: response, uploadURL: nil)
        case .tus(let upload):
            let result = try await upload.send(with: client, resumingFrom: state, stateChanged: stateChanged, progress: progress)
            return Outcome(response: result.response, uploadURL: result.uploadURL)
        }
    }
}
