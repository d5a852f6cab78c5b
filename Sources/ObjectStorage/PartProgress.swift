import HTTPBody
import RequestBuilder

/// Bytes sent across the parts in flight, reported as one figure.
///
/// Each part's count restarts when its request is retried, so the total is
/// what the store holds plus what each part's current attempt has sent.
final class PartProgress: Sendable {
    private let state: LockedValue<[Int: Int64]>
    private let alreadyHeld: Int64
    private let total: Int64
    private let report: @Sendable (UploadProgress) -> Void

    init(alreadyHeld: Int64, total: Int64, report: @escaping @Sendable (UploadProgress) -> Void) {
        self.state = LockedValue([:])
        self.alreadyHeld = alreadyHeld
        self.total = total
        self.report = report
    }

    /// Part `number` has `sent` bytes out in its current attempt.
    func update(part number: Int, sent: Int64) {
        let sum = state.withLock { parts in
            parts[number] = sent
            return parts.values.reduce(alreadyHeld, +)
        }
        report(UploadProgress(bytesSent: min(sum, total), totalBytes: total))
    }
}
