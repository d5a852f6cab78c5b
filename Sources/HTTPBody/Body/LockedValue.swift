/// A value behind a lock, for the little shared mutable state a body has
/// (whether a one-shot stream was already taken).
///
/// `@unchecked Sendable` because every access goes through `lock`.
package final class LockedValue<Value>: @unchecked Sendable {
    private let lock = ConditionLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&value) }
    }
}
