#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds a boundary in content that arrives in pieces, including occurrences
/// that straddle two pieces, by keeping the last `boundary.count - 1` bytes seen.
struct BoundaryScanner {
    private let pattern: [UInt8]
    private var tail: [UInt8]
    private var joined: [UInt8]

    init(pattern: [UInt8]) {
        self.pattern = pattern
        tail = []
        tail.reserveCapacity(pattern.count)
        joined = []
        joined.reserveCapacity(2 * pattern.count)
    }

    /// Forgets what was seen, at the start of a new part.
    mutating func reset() {
        tail.removeAll(keepingCapacity: true)
    }

    /// Whether the pattern ends within `bytes`, given everything scanned since the last reset.
    mutating func scan(_ bytes: UnsafeRawBufferPointer) -> Bool {
        guard !bytes.isEmpty else { return false }
        let keep = pattern.count - 1
        if !tail.isEmpty {
            // Occurrences that start in the tail and end in the new bytes.
            joined.removeAll(keepingCapacity: true)
            joined.append(contentsOf: tail)
            joined.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.prefix(keep)))
            let straddles = joined.withUnsafeBytes { Self.contains(pattern, in: $0) }
            if straddles { return true }
        }
        if Self.contains(pattern, in: bytes) { return true }
        if bytes.count >= keep {
            tail.removeAll(keepingCapacity: true)
            tail.append(contentsOf: UnsafeRawBufferPointer(rebasing: bytes.suffix(keep)))
        } else {
            tail.append(contentsOf: bytes)
            if tail.count > keep { tail.removeFirst(tail.count - keep) }
        }
        return false
    }

    /// Whether `pattern` occurs in `haystack`: `memchr` to the first byte, `memcmp` for the rest.
    static func contains(_ pattern: [UInt8], in haystack: UnsafeRawBufferPointer) -> Bool {
        guard let first = pattern.first, haystack.count >= pattern.count, let base = haystack.baseAddress else {
            return pattern.isEmpty
        }
        return pattern.withUnsafeBytes { needle in
            guard let needleBase = needle.baseAddress else { return false }
            var offset = 0
            let lastStart = haystack.count - pattern.count
            while offset <= lastStart {
                guard let hit = memchr(base + offset, Int32(first), lastStart - offset + 1) else { return false }
                let position = base.distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, needleBase, pattern.count) == 0 { return true }
                offset = position + 1
            }
            return false
        }
    }
}
