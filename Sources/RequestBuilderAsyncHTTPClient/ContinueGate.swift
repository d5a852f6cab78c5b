import HTTPBody

/// Holds back the body of a request sent with `Expect: 100-continue` until
/// the server says to send it, as curl does (RFC 9110, section 10.1.1).
///
/// AsyncHTTPClient starts a body as soon as the head is written and passes
/// over informational heads, so the transport reads the body through this
/// gate (``ByteBufferChunks``) and a ``ContinueWatcher`` on the connection
/// opens it: at `100 Continue` or a `2xx` final answer, the body goes; at a
/// final answer of `300` or more (`401`, `413`), it never does, and
/// AsyncHTTPClient, which pauses a body once such an answer comes, closes
/// the connection after it. With no answer within the wait (a server that
/// ignores `Expect`), the body goes anyway.
///
/// The transport finds the gate again on the connection through a marker
/// field in the head (``markerName``), which the watcher removes before
/// the head is written; ``pending`` holds the gates not yet claimed.
final class ContinueGate: Sendable {
    /// The marker field's name: never sent.
    static let markerName = "x-requestbuilder-continue-gate"

    /// How long a body waits for an answer before it is sent anyway: curl's
    /// one second.
    static let wait = Duration.seconds(1)

    /// The gates whose heads are on their way to a connection, by marker value.
    static let pending = LockedValue<[String: ContinueGate]>([:])

    private enum Decision {
        case undecided
        case send
        case withhold
        case abandoned
    }

    private struct State {
        var decision = Decision.undecided
        var waiter: CheckedContinuation<Void, any Error>?
    }

    private let state = LockedValue(State())

    /// Makes a gate and registers it under a fresh marker value, which the
    /// caller puts in the head.
    static func register() -> (gate: ContinueGate, marker: String) {
        let gate = ContinueGate()
        let marker = String(UInt64.random(in: .min ... .max), radix: 16)
        pending.withLock { $0[marker] = gate }
        return (gate, marker)
    }

    /// The gate registered under `marker`, no longer pending.
    static func claim(_ marker: String) -> ContinueGate? {
        pending.withLock { $0.removeValue(forKey: marker) }
    }

    /// The server asked for the body (`100 Continue`, a `2xx` answer), the
    /// wait ran out, or the connection cannot wait (HTTP/2): send it.
    func open() {
        decide(.send)
    }

    /// The server answered finally without asking for the body: it is never sent.
    func withhold() {
        decide(.withhold)
    }

    /// The connection closed, or the request ended, before the body went:
    /// the wait fails.
    func abandon() {
        decide(.abandoned)
        Self.pending.withLock { pending in pending = pending.filter { $0.value !== self } }
    }

    /// Returns once the body may go; waits at most ``wait`` for an answer.
    /// Throws `CancellationError` when the body must never go and the
    /// exchange is over, or the task is cancelled.
    func waitForPermission() async throws {
        let timer = Task { [self] in
            try await Task.sleep(for: Self.wait)
            open()
        }
        defer { timer.cancel() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let decided = state.withLock { state -> Decision in
                    if state.decision == .undecided || state.decision == .withhold { state.waiter = continuation }
                    return state.decision
                }
                switch decided {
                case .send: continuation.resume()
                case .abandoned: continuation.resume(throwing: CancellationError())
                case .undecided, .withhold: break
                }
            }
        } onCancel: {
            abandon()
        }
    }

    private func decide(_ decision: Decision) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            // A withheld body stays withheld: the wait's end does not send it.
            switch (state.decision, decision) {
            case (.undecided, _), (.withhold, .abandoned): state.decision = decision
            default: return nil
            }
            guard decision != .withhold else { return nil }
            defer { state.waiter = nil }
            return state.waiter
        }
        switch decision {
        case .send: waiter?.resume()
        case .abandoned: waiter?.resume(throwing: CancellationError())
        case .undecided, .withhold: break
        }
    }
}
