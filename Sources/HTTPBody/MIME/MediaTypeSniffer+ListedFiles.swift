import Dispatch
import Synchronization

extension MediaTypeSniffer {
    /// Files sniffed as ``sniffFiles(at:lanes:)`` sniffs them, while the
    /// caller is still finding them: `list` runs on the calling thread and
    /// hands each group of files it finds (a directory's, say) to `listed`,
    /// and once enough are found to be worth a thread, lanes sniff them as
    /// the listing goes on; the calling thread becomes one more lane when
    /// `list` returns. A walk of a tree and the sniff of its files then take
    /// about as long as the longer of the two, not their sum.
    ///
    /// - Returns: What `list` returned, and for each file it handed over, in
    ///   the order it handed them, what ``sniffFiles(at:lanes:)`` would
    ///   return for it.
    /// - Throws: What `list` throws; every file sniffed so far is then
    ///   closed before this returns.
    package func sniffFiles<Listing, Failure: Error>(
        lanes: Int, listedBy list: (_ listed: ([FileLocation]) -> Void) throws(Failure) -> Listing
    ) throws(Failure) -> (listing: Listing, files: [SniffedFile?]) {
        var early: [FileLocation] = []
        var feed: ListedFilesFeed<Self>?
        let listing: Listing
        do throws(Failure) {
            listing = try list { locations in
                if let feed {
                    feed.add(locations)
                    return
                }
                early += locations
                guard lanes > 1, early.count >= Self.filesBeforeLanes else { return }
                // A tree this size is likely larger still: the descriptor
                // table grows once, before any lane opens a file.
                HeldFile.reserveTable(forHolding: HeldFile.budget)
                let started = ListedFilesFeed(sniffer: self)
                started.add(early)
                early = []
                started.startLanes(lanes - 1)
                feed = started
            }
        } catch {
            feed?.cancel()
            throw error
        }
        guard let feed else { return (listing, sniffFiles(at: early, lanes: lanes)) }
        return (listing, feed.finish())
    }

    /// How many files are found before lanes start sniffing them; a listing
    /// of fewer is sniffed as one batch once it is complete.
    private static var filesBeforeLanes: Int { 256 }

    /// One file opened, measured and sniffed as the batch sniffs do: `nil`
    /// when it cannot be opened or read.
    package func sniffedFile(at location: FileLocation) -> SniffedFile? {
        do throws(RequestBodyError) {
            let file = try FileReader(measuring: location)
            let type = try mediaType(of: file, at: location) ?? .octetStream
            return SniffedFile(location: location, length: file.expectedLength, type: type, held: HeldFile.holding(file))
        } catch {
            return nil
        }
    }
}

/// The files a listing has found so far, and the answers of the lanes that
/// sniff them (``MediaTypeSniffer/sniffFiles(lanes:listedBy:)``).
///
/// Every file is claimed by exactly one lane, under the lock, a few at a
/// time; a lane that finds nothing to claim before the listing is complete
/// counts itself as waiting and sleeps on `wake`, which the next files (or
/// the end of the listing) signal once for each lane counted.
private final class ListedFilesFeed<Sniffer: MediaTypeSniffer>: Sendable {
    private struct State {
        var locations: [FileLocation] = []
        var answers: [SniffedFile?] = []
        var nextClaim = 0
        var waiting = 0
        var isComplete = false
        var isCancelled = false

        /// The count of lanes waiting, which the caller wakes; none waits after.
        mutating func takeWaiting() -> Int {
            defer { waiting = 0 }
            return waiting
        }
    }

    private enum Claim {
        case files(start: Int, [FileLocation])
        case wait
        case done
    }

    private let sniffer: Sniffer
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let lanes = DispatchGroup()

    init(sniffer: Sniffer) {
        self.sniffer = sniffer
    }

    /// Files found: appended, and waiting lanes woken.
    func add(_ found: [FileLocation]) {
        guard !found.isEmpty else { return }
        let waiting = state.withLock { state in
            state.locations += found
            state.answers += repeatElement(nil, count: found.count)
            return state.takeWaiting()
        }
        for _ in 0..<waiting { wake.signal() }
    }

    /// Starts `count` lanes on other threads.
    func startLanes(_ count: Int) {
        for _ in 0..<count {
            DispatchQueue.global().async(group: lanes) { self.sniffUntilDone() }
        }
    }

    /// The listing is complete: the calling thread sniffs beside the lanes
    /// until every file is sniffed; the answers, in the order listed.
    func finish() -> [SniffedFile?] {
        end(cancelling: false)
        sniffUntilDone()
        lanes.wait()
        return state.withLock { state in
            let answers = state.answers
            state.answers = []
            return answers
        }
    }

    /// The listing failed: lanes stop at their next claim, and what they
    /// sniffed is closed.
    func cancel() {
        end(cancelling: true)
        lanes.wait()
        state.withLock { $0.answers = [] }
    }

    private func end(cancelling: Bool) {
        let waiting = state.withLock { state in
            state.isComplete = true
            state.isCancelled = cancelling
            return state.takeWaiting()
        }
        for _ in 0..<waiting { wake.signal() }
    }

    private func sniffUntilDone() {
        while true {
            let claim = state.withLock { state -> Claim in
                if state.isCancelled { return .done }
                if state.nextClaim < state.locations.count {
                    let start = state.nextClaim
                    state.nextClaim = min(start + Sniffer.filesPerClaim, state.locations.count)
                    return .files(start: start, Array(state.locations[start..<state.nextClaim]))
                }
                if state.isComplete { return .done }
                state.waiting += 1
                return .wait
            }
            switch claim {
            case .done:
                return
            case .wait:
                wake.wait()
            case .files(let start, let locations):
                let sniffed = locations.map(sniffer.sniffedFile(at:))
                state.withLock { state in
                    guard !state.isCancelled else { return }
                    for (offset, file) in sniffed.enumerated() { state.answers[start + offset] = file }
                }
            }
        }
    }
}
