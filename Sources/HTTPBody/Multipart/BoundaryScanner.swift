/// Finds a boundary in content that arrives in pieces, including occurrences
/// that straddle two pieces, by keeping the last `boundary.count - 1` bytes seen.
struct BoundaryScanner {
    private let search: BoundarySearch
    private var tail: [UInt8]
    private var joined: [UInt8]

    init(search: BoundarySearch) {
        self.search = search
        tail = []
        tail.reserveCapacity(search.pattern.count)
        joined = []
        joined.reserveCapacity(2 * search.pattern.count)
    }

    /// Forgets what was seen, at the start of a new part.
    mutating func reset() {
        tail.removeAll(keepingCapacity: true)
    }

    /// Whether the pattern ends within `bytes`, given everything scanned since the last reset.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        let keep = search.pattern.count - 1
        if !tail.isEmpty {
            // Occurrences that start in the tail and end in the new bytes.
            joined.removeAll(keepingCapacity: true)
            joined.append(contentsOf: tail)
            joined.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(keep)))
            let straddles = joined.withUnsafeBytes { search.occurs(in: $0) }
            if straddles { return true }
        }
        if search.occurs(in: bytes) { return true }
        if bytes.count >= keep {
            tail.removeAll(keepingCapacity: true)
            tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.suffix(keep)))
        } else {
            tail.append(contentsOf: bytes)
            if tail.count > keep { tail.removeFirst(tail.count - keep) }
        }
        return false
    }
}
