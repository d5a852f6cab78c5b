import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Ends the process on Ctrl-C (SIGINT) or SIGTERM the way a shell expects,
/// status 128 + the signal's number, after ending a progress bar's line so
/// the prompt does not start in the middle of it.
///
/// With a progress bar the signals are taken by dispatch sources rather than
/// C handlers, so the clean-up may lock and write as any code does; without
/// one there is nothing to clean up, and a C handler ends the process.
final class Interruption: @unchecked Sendable {
    // @unchecked Sendable: `bar` is written before the sources can fire and
    // read only on `queue` afterwards.
    static let shared = Interruption()

    private let queue = DispatchQueue(label: "uploader.signals")
    private var sources: [any DispatchSourceSignal] = []
    private var bar: ProgressBar?

    /// Starts handling SIGINT and SIGTERM, finishing `bar`'s line on either.
    func watch(_ bar: ProgressBar?) {
        queue.sync {
            self.bar = bar
            guard sources.isEmpty else { return }
            guard bar != nil else {
                // No line to finish: a plain handler, which calls nothing but
                // _exit (safe in a signal handler), spares the process the
                // dispatch thread and signalfd descriptors that sources cost.
                signal(SIGINT) { _exit(128 + $0) }
                signal(SIGTERM) { _exit(128 + $0) }
                return
            }
            for number in [SIGINT, SIGTERM] {
                signal(number, SIG_IGN)  // the source receives it instead
                let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
                source.setEventHandler { [unowned self] in
                    self.bar?.finish()
                    // _exit: nothing is buffered (every write is write(2)), and
                    // exit's clean-up would race the threads still running.
                    _exit(128 + number)
                }
                source.resume()
                sources.append(source)
            }
        }
    }
}
