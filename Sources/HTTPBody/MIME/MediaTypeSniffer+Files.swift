import Dispatch
import Foundation
import Synchronization

extension MediaTypeSniffer {
    /// The media types of many files, each sniffed as
    /// ``mediaType(of:at:)`` sniffs one, on up to `lanes` threads at once.
    ///
    /// A form of thousands of files spends most of its preparation opening,
    /// reading and typing them one by one, and for arbitrary binary libmagic
    /// alone takes a fraction of a millisecond a file: spread over the
    /// cores, the request's head is ready sooner.
    ///
    /// - Returns: For each location, in order, its type:
    ///   `application/octet-stream` when the sniffer cannot tell (as a part
    ///   appended without a type would say), and `nil` when the file cannot
    ///   be opened or read, so the caller's own append reports why, naming
    ///   the part.
    package func mediaTypes(ofFilesAt locations: [FileLocation], lanes: Int) -> [MediaType?] {
        let sniff = { @Sendable (location: FileLocation) -> MediaType? in
            do throws(RequestBodyError) {
                return try mediaType(of: FileReader(measuring: location), at: location) ?? .octetStream
            } catch {
                return nil
            }
        }
        let lanes = min(lanes, (locations.count + Self.filesPerClaim - 1) / Self.filesPerClaim)
        guard lanes > 1 else { return locations.map(sniff) }
        let types = SniffedTypes(count: locations.count)
        defer { types.free() }
        let nextFile = Atomic(0)
        // Each lane claims a few files at a time, so a lane held up by
        // libmagic does not leave the other waiting on a fixed share.
        DispatchQueue.concurrentPerform(iterations: lanes) { _ in
            while true {
                let start = nextFile.add(Self.filesPerClaim, ordering: .relaxed).oldValue
                guard start < locations.count else { return }
                for index in start..<min(start + Self.filesPerClaim, locations.count) {
                    types.slots[index] = sniff(locations[index])
                }
            }
        }
        return Array(types.slots)
    }

    /// How many files a lane takes at once.
    private static var filesPerClaim: Int { 8 }
}

/// One slot per file for the lanes of
/// ``MediaTypeSniffer/mediaTypes(ofFilesAt:lanes:)`` to write their answers
/// in. `@unchecked Sendable` because each slot is written by the one lane
/// that claimed its file, and read only after every lane has returned.
private struct SniffedTypes: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<MediaType?>

    init(count: Int) {
        slots = .allocate(capacity: count)
        slots.initialize(repeating: nil)
    }

    func free() {
        _ = slots.deinitialize()
        slots.deallocate()
    }
}
