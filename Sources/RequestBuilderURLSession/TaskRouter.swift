#if canImport(FoundationNetworking)
import Foundation
import FoundationNetworking
#else
import Foundation
#endif
import HTTPBody
import RequestBuilder

/// The session's delegate: routes each task's callbacks to the request waiting for it.
///
/// `@unchecked Sendable` because the table of tasks is only touched under its lock.
final class TaskRouter: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    /// How a task ended.
    enum Outcome {
        /// The whole response arrived.
        case response(HTTPURLResponse, Data)
        /// The response head arrived, then the exchange failed: the server
        /// answered, so this is not a failure to reach it (and not retried).
        case answered(HTTPURLResponse, Data, URLError)
        /// No response head arrived.
        case failure(URLError)
    }

    private struct Pending {
        var continuation: CheckedContinuation<Outcome, Never>
        var progress: @Sendable (UploadProgress) -> Void
        var data = Data()
    }

    private let pending = LockedValue<[Int: Pending]>([:])

    func register(
        _ task: URLSessionTask,
        progress: @escaping @Sendable (UploadProgress) -> Void,
        continuation: CheckedContinuation<Outcome, Never>
    ) {
        pending.withLock {
            $0[task.taskIdentifier] = Pending(continuation: continuation, progress: progress)
        }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64, totalBytesExpectedToSend: Int64) {
        guard let progress = pending.withLock({ $0[task.taskIdentifier]?.progress }) else { return }
        progress(UploadProgress(bytesSent: totalBytesSent, totalBytes: totalBytesExpectedToSend >= 0 ? totalBytesExpectedToSend : nil))
    }

    /// Never follows a redirect: the redirect is the task's response, and
    /// following it is `RedirectMiddleware`'s decision, made the same way on
    /// every transport (URLSession alone would turn a 307's POST into a GET
    /// on some platforms and keep `Authorization` across hosts).
    func urlSession(_ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        pending.withLock { $0[dataTask.taskIdentifier]?.data.append(data) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard let finished = pending.withLock({ $0.removeValue(forKey: task.taskIdentifier) }) else { return }
        let response = task.response as? HTTPURLResponse
        if let error {
            let urlError = error as? URLError ?? URLError(.unknown, userInfo: [NSUnderlyingErrorKey: error])
            if let response {
                finished.continuation.resume(returning: .answered(response, finished.data, urlError))
            } else {
                finished.continuation.resume(returning: .failure(urlError))
            }
        } else if let response {
            finished.continuation.resume(returning: .response(response, finished.data))
        } else {
            finished.continuation.resume(returning: .failure(URLError(.badServerResponse)))
        }
    }
}
