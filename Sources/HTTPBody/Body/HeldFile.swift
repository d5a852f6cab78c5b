#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A file opened and measured (and perhaps sniffed) when a body was made,
/// kept open until the body's first read takes it: the file is opened once,
/// and the bytes sent are those of the file measured and sniffed, even if
/// another file has taken its name since.
///
/// Every descriptor kept this way counts against one budget for the process
/// (``budget``); past it, ``holding(_:)`` declines and the file is opened
/// again when it is sent, so a form of any number of files holds a bounded
/// number of descriptors. What is kept is the descriptor alone, a few bytes
/// a file: a form of thousands holds no reader or lock for each.
package final class HeldFile: Sendable {
    /// The descriptor, at the file's start; -1 once taken.
    private let descriptor: Atomic<Int32>
    private let location: FileLocation
    private let length: Int64

    private init(descriptor: Int32, location: FileLocation, length: Int64) {
        self.descriptor = Atomic(descriptor)
        self.location = location
        self.length = length
    }

    deinit {
        let kept = descriptor.load(ordering: .relaxed)
        if kept >= 0 {
            close(kept)
            Self.held.subtract(1, ordering: .relaxed)
        }
    }

    /// Keeps `reader`'s descriptor open for the body's first read, taking it
    /// from the reader, or `nil` when the budget is spent (the reader keeps
    /// it, and closes it when it is released).
    package static func holding(_ reader: FileReader) -> HeldFile? {
        guard held.add(1, ordering: .relaxed).oldValue < budget else {
            held.subtract(1, ordering: .relaxed)
            return nil
        }
        return HeldFile(descriptor: reader.releaseDescriptor(), location: reader.location, length: reader.expectedLength)
    }

    /// A reader of the file from its first byte, for the first caller only;
    /// `nil` after.
    package func take() -> FileReader? {
        let taken = descriptor.exchange(-1, ordering: .relaxed)
        guard taken >= 0 else { return nil }
        Self.held.subtract(1, ordering: .relaxed)
        return FileReader(adopting: taken, location: location, length: length)
    }

    /// Grows the process's descriptor table, once, to room for `count` more
    /// held files than are open now (at most ``budget``).
    ///
    /// Linux doubles the table as descriptors reach its size (64, 128, …),
    /// and in a process with several threads each doubling waits for an RCU
    /// grace period, milliseconds in which every thread opening a file
    /// stands still: a form of 3,000 files would wait at 256, 512, 1,024 and
    /// 2,048. Asking for a descriptor at the far end first makes it one
    /// wait.
    package static func reserveTable(forHolding count: Int) {
        let wanted = min(count, budget - heldCount)
        guard wanted > 64 else { return }  // the table's first size
        let probe = fcntl(STDERR_FILENO, F_DUPFD_CLOEXEC, Int32(clamping: wanted + 64))
        if probe >= 0 { close(probe) }
    }

    /// How many descriptors are held now, across the process.
    package static var heldCount: Int { held.load(ordering: .relaxed) }

    /// How many descriptors may be held at once: a quarter of the soft
    /// `RLIMIT_NOFILE` past its first 64, at most 4,096 (none under a limit
    /// of 64 or less), so the event loop, the connections, the file being
    /// sent and whatever else the process opens keep the rest.
    package static let budget: Int = {
        var limit = rlimit()
        #if os(Linux) && canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        #else
        let resource = RLIMIT_NOFILE
        #endif
        guard getrlimit(resource, &limit) == 0 else { return 0 }
        let soft = UInt64(limit.rlim_cur)  // no limit is the largest value
        return Int(soft > 64 ? min((soft - 64) / 4, 4096) : 0)
    }()

    private static let held = Atomic<Int>(0)
}
