import Dispatch
import Foundation
import Synchronization

extension MediaTypeSniffer {
    /// Many files opened, measured and sniffed as ``mediaType(of:at:)``
    /// sniffs one, on up to `lanes` threads at once, each kept open for its
    /// send while ``HeldFile/budget`` allows, so a form of them opens each
    /// file once.
    ///
    /// A form of thousands of files spends most of its preparation opening,
    /// reading and typing them one by one, and for arbitrary binary libmagic
    /// alone takes a fraction of a millisecond a file: spread over the
    /// cores, the request's head is ready sooner.
    ///
    /// - Returns: For each location, in order, the file with its type
    ///   (`application/octet-stream` when the sniffer cannot tell, as a part
    ///   appended without a type would say), or `nil` when the file cannot
    ///   be opened or read, so the caller's own append reports why, naming
    ///   the part.
    package func sniffFiles(at locations: [FileLocation], lanes: Int) -> [SniffedFile?] {
        let sniff = { @Sendable (location: FileLocation) -> SniffedFile? in sniffedFile(at: location) }
        HeldFile.reserveTable(forHolding: locations.count)
        let lanes = min(lanes, (locations.count + Self.filesPerClaim - 1) / Self.filesPerClaim)
        guard lanes > 1 else { return locations.map(sniff) }
        // The lanes write straight into the answer's storage: no second
        // array of answers (0.6 MB for 10,000 files) is held while
        // libmagic's database is resident.
        return [SniffedFile?](unsafeUninitializedCapacity: locations.count) { buffer, count in
            buffer.initialize(repeating: nil)
            let files = SniffedFiles(slots: buffer)
            let nextFile = Atomic(0)
            // Each lane claims a few files at a time, so a lane held up by
            // libmagic does not leave the other waiting on a fixed share.
            DispatchQueue.concurrentPerform(iterations: lanes) { _ in
                while true {
                    let start = nextFile.add(Self.filesPerClaim, ordering: .relaxed).oldValue
                    guard start < locations.count else { return }
                    for index in start..<min(start + Self.filesPerClaim, locations.count) {
                        files.slots[index] = sniff(locations[index])
                    }
                }
            }
            count = locations.count
        }
    }

    /// How many files a lane of a batch sniff takes at once, here and in
    /// ``sniffFiles(lanes:listedBy:)``.
    static var filesPerClaim: Int { 8 }
}

/// A file a batch sniff opened, measured and typed
/// (``MediaTypeSniffer/sniffFiles(at:lanes:)``), and the descriptor it kept
/// for the file's send, when the budget allowed one.
package struct SniffedFile: Sendable {
    /// Where the file is.
    package let location: FileLocation
    /// Its size when it was measured.
    package let length: Int64
    /// What the sniffer made of it.
    package let type: MediaType
    /// The file as opened, for its send; `nil` when it is opened again then.
    package let held: HeldFile?
}

/// One slot per file for the lanes of
/// ``MediaTypeSniffer/sniffFiles(at:lanes:)`` to write their answers
/// in: the storage of the array returned. `@unchecked Sendable` because each
/// slot is written by the one lane that claimed its file, and read only after
/// every lane has returned.
private struct SniffedFiles: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<SniffedFile?>
}
