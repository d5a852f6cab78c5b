import Dispatch
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ends the server: SIGTERM or SIGINT, or, for a child of a test, its
/// standard input closing, which happens even when the test process crashes.
enum ShutdownSignal {
    /// Waits for the first of them and says which it was.
    static func wait(includingStdinEOF: Bool) async -> String {
        let (reasons, continuation) = AsyncStream.makeStream(of: String.self)
        var sources: [any DispatchSourceSignal] = []
        for (number, name) in [(SIGTERM, "SIGTERM"), (SIGINT, "SIGINT")] {
            // Ignored as a signal so the dispatch source, not the default action, sees it.
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { continuation.yield(name) }
            source.resume()
            sources.append(source)
        }
        if includingStdinEOF {
            DispatchQueue.global().async {
                var buffer = [UInt8](repeating: 0, count: 512)
                while true {
                    let count = buffer.withUnsafeMutableBytes { read(STDIN_FILENO, $0.baseAddress, $0.count) }
                    if count == 0 || (count < 0 && errno != EINTR) { break }
                }
                continuation.yield("standard input closed")
            }
        }
        var iterator = reasons.makeAsyncIterator()
        let reason = await iterator.next() ?? "no reason"
        sources.forEach { $0.cancel() }
        return reason
    }
}
