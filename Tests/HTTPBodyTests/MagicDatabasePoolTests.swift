import Dispatch
import Foundation
@testable import HTTPBody
import Testing
import TestSupport

/// The libmagic handle pool under calls from several threads at once, while
/// its release timer fires between them.
@Suite struct MagicDatabasePoolTests {
    /// Four threads sniff for 30 release delays, so the timer that closes an
    /// idle pool fires again and again while handles are checked out and in;
    /// the pool answers every call, and once no call uses it, it closes every
    /// handle. Under ThreadSanitizer, a count the timer reads outside the
    /// pool's lock is reported as a data race.
    @Test func releaseTimerRunsWhileHandlesComeAndGo() async throws {
        let pool = try #require(MagicDatabase(maximumCount: 4))
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52]
        let until = DispatchTime.now() + .milliseconds(300)
        let tally = Tally()
        // Threads of their own, not Dispatch's: the release timer runs on a
        // global queue, which sniffing on every one of its threads would
        // starve until the sniffing ended.
        let finished = DispatchSemaphore(value: 0)
        for _ in 0..<4 {
            Thread {
                while DispatchTime.now() < until {
                    tally.add(pool.mediaType(of: png)?.description == "image/png")
                }
                finished.signal()
            }.start()
        }
        for _ in 0..<4 { finished.wait() }
        let (calls, answers) = tally.counts
        #expect(calls > 0)
        #expect(answers == calls)
        // The release timer runs on its own; the suite's liveness bound
        // waits for it on a loaded machine, and nothing waits where it ran.
        let deadline = ContinuousClock.now + TestTime.liveness
        while pool.openHandleCount > 0, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(5))
        }
        #expect(pool.openHandleCount == 0)
    }
}

/// Counts calls and right answers from several threads; `@unchecked
/// Sendable` because both counts are only touched under `lock`.
private final class Tally: @unchecked Sendable {
    private let lock = NSLock()
    private var calls = 0
    private var answers = 0

    var counts: (calls: Int, answers: Int) { lock.withLock { (calls, answers) } }

    func add(_ isRight: Bool) {
        lock.withLock {
            calls += 1
            if isRight { answers += 1 }
        }
    }
}
