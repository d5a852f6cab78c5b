import HTTPBody
import RequestBuilder

/// Bytes sent across the parts in flight, reported as one figure.
///
/// Each part's count restarts when its request is retried, so the total is
/// what the store holds plus what each part's current attempt has sent. A
/// figure equal to the last one reported is not reported again (a part's
/// transport may tell its final count more than once).
final class PartProgress: Sendable {
    private struct Counts {
        var parts: [Int: Int64] = [:]
        var reported: Int64?
    }

    private let state: LockedValue<Counts>
    private let alreadyHeld: Int64
    private let total: Int64
    private let report: @Sendable (UploadProgress) -> Void

    init(alreadyHeld: Int64, total: Int64, report: @escaping @Sendable (UploadProgress) -> Void) {
        self.state = LockedValue(Counts())
        self.alreadyHeld = alreadyHeld
        self.total = total
        self.report = report
    }

    /// Part `number` has `sent` bytes out in its current attempt.
    func update(part number: Int, sent: Int64) {
        let changed: Int64? = state.withLock { counts in
            counts.parts[number] = sent
            let sum = min(counts.parts.values.reduce(alreadyHeld, +), total)
            guard sum != counts.reported else { return nil }
            counts.reported = sum
            return sum
        }
        if let changed { report(UploadProgress(bytesSent: changed, totalBytes: total)) }
    }
}
