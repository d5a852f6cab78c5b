import Foundation

/// Whether code runs on the main queue, which is where the main actor runs.
///
/// Told by a value set on the queue, not by `Thread.isMainThread`: under
/// some runners (Linux's test runner) the main queue is drained on a thread
/// other than the process's first.
enum MainQueue {
    private static let key: DispatchSpecificKey<Bool> = {
        let key = DispatchSpecificKey<Bool>()
        DispatchQueue.main.setSpecific(key: key, value: true)
        return key
    }()

    /// Whether the caller runs on the main queue.
    static var isCurrent: Bool { DispatchQueue.getSpecific(key: key) == true }
}
