import Foundation
import RequestBuilder

/// Retries after 50-100 ms: long enough for the server to read what a cut
/// connection had already delivered before it is asked for its offset (a
/// server counts only the bytes it has read; asked at once, it would report
/// fewer and those in its socket buffer would be sent again), short enough
/// to keep the tests quick.
func quickRetry(attempts: Int) -> RetryMiddleware {
    RetryMiddleware(maximumAttempts: attempts, initialBackoff: .milliseconds(100), maximumBackoff: .milliseconds(100))
}

/// The IETF test server's answer to a completed upload.
struct StoredAnswer: Decodable {
    let bytes: Int64
    let sha256: String
}

/// Collects what a callback is handed, from any thread.
final class Recorder<Value: Sendable>: Sendable {
    private let values = LockedValues<Value>()
    func append(_ value: Value) { values.append(value) }
    var all: [Value] { values.all }
}

private final class LockedValues<Value: Sendable>: @unchecked Sendable {
    // @unchecked: every access holds `lock`.
    private let lock = NSLock()
    private var storage: [Value] = []
    func append(_ value: Value) { lock.withLock { storage.append(value) } }
    var all: [Value] { lock.withLock { storage } }
}
