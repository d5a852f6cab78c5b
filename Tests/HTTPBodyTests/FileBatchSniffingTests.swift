import Foundation
@testable import HTTPBody
import SystemPackage
import Testing
import TestSupport

/// ``MediaTypeSniffer/sniffFiles(at:lanes:)`` and
/// ``MediaTypeSniffer/sniffFiles(lanes:listedBy:)``: many files typed on several
/// lanes give each file the answer sniffing it alone gives, in the files'
/// order, and `nil` for a file that cannot be read; a form of them sends
/// each file through the descriptor its sniff opened.
@Suite struct FileBatchSniffingTests {
    /// The MIME fixtures, each copied under several names into a new
    /// directory, with a missing path and a directory among them.
    static func locations() throws -> (directory: URL, locations: [FileLocation], alone: [MediaType?]) {
        let folder = fixtures.appending(path: "MIME")
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
        let directory = try makeTemporaryDirectory()
        try FileManager.default.createDirectory(at: directory.appending(path: "a-directory"), withIntermediateDirectories: true)
        var locations: [FileLocation] = []
        var alone: [MediaType?] = []
        for round in 0..<6 {
            for name in names {
                let copy = directory.appending(path: "\(round)-\(name)")
                try FileManager.default.copyItem(at: folder.appending(path: name), to: copy)
                locations.append(FileLocation(FilePath(copy.path)))
                alone.append(try StandardMediaTypeSniffer().mediaType(ofFileAt: copy) ?? .octetStream)
            }
            locations.append(FileLocation(FilePath(directory.appending(path: "missing-\(round)").path)))
            alone.append(nil)
            locations.append(FileLocation(FilePath(directory.appending(path: "a-directory").path)))
            alone.append(nil)
        }
        return (directory, locations, alone)
    }

    @Test(arguments: [1, 2, 4])
    func manyFilesGetTheTypesEachGetsAlone(lanes: Int) throws {
        let (directory, locations, alone) = try Self.locations()
        defer { try? FileManager.default.removeItem(at: directory) }
        // Several kinds, so an answer put in another file's place shows.
        #expect(Set(alone.compactMap { $0?.essence }).count >= 5, "\(alone)")
        let types = StandardMediaTypeSniffer().sniffFiles(at: locations, lanes: lanes).map { $0?.type }
        #expect(types.count == locations.count)
        for (index, (type, expected)) in zip(types, alone).enumerated() {
            #expect(type == expected, "\(locations[index]): \(String(describing: type)), alone \(String(describing: expected))")
        }
    }

    /// Files handed over in groups as a listing finds them get the answers
    /// each gets alone, in the order handed over, whether the listing is
    /// long enough for lanes to start before it ends (five rounds of the
    /// fixtures) or not (one), and the listing's own result comes back.
    @Test(arguments: [1, 2, 4], [1, 5])
    func filesSniffedAsTheyAreListedGetTheTypesEachGetsAlone(lanes: Int, rounds: Int) throws {
        let (directory, locations, alone) = try Self.locations()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listed = Array(repeating: locations, count: rounds).joined().map { $0 }
        let expected = Array(repeating: alone, count: rounds).joined().map { $0 }
        if rounds > 1 { #expect(listed.count > 256, "the lanes start before the listing ends") }
        let (listing, files) = StandardMediaTypeSniffer().sniffFiles(lanes: lanes) { (found: ([FileLocation]) -> Void) -> Int in
            var groups = 0
            var start = 0
            while start < listed.count {
                let end = min(start + 7 + groups % 29, listed.count)
                found(Array(listed[start..<end]))
                groups += 1
                start = end
            }
            return groups
        }
        #expect(listing > 1)
        #expect(files.count == listed.count)
        for (index, (file, type)) in zip(files, expected).enumerated() {
            #expect(file?.type == type, "\(listed[index])")
            #expect(file.map { $0.location == listed[index] } ?? true, "\(listed[index])")
        }
    }

    /// A listing that fails once lanes have started gets its error back, and
    /// the lanes waiting for more files are let go.
    @Test func aListingThatFailsGetsItsErrorBack() throws {
        struct ListingFailed: Error, Equatable {}
        let (directory, locations, _) = try Self.locations()
        defer { try? FileManager.default.removeItem(at: directory) }
        let listed = Array(repeating: locations, count: 5).joined().map { $0 }
        #expect(listed.count > 256, "the lanes start before the listing fails")
        #expect(throws: ListingFailed()) {
            _ = try StandardMediaTypeSniffer().sniffFiles(lanes: 4) { (found: ([FileLocation]) -> Void) throws(ListingFailed) in
                found(listed)
                throw ListingFailed()
            }
        }
    }

    @Test func noFilesGiveNoTypes() {
        #expect(StandardMediaTypeSniffer().sniffFiles(at: [], lanes: 4).isEmpty)
    }

    /// Files replaced under their names between the sniff and the send are
    /// sent as they were sniffed, each through the descriptor its sniff
    /// opened: the type and the bytes of the part agree.
    @Test func sniffedFilesAreSentAsSniffed() async throws {
        let (directory, locations, _) = try Self.locations()
        defer { try? FileManager.default.removeItem(at: directory) }
        let readable = locations.filter { FileStatus.isDirectory(at: $0) == false }
        let originals = try readable.map { try Data(contentsOf: URL(filePath: $0.description)) }
        let sniffed = StandardMediaTypeSniffer().sniffFiles(at: readable, lanes: 2)
        var expected = MultipartFormData(boundary: try .constant("sniffed"))
        for (index, location) in readable.enumerated() {
            expected.append(originals[index], name: "f", filename: location.baseNameText, contentType: sniffed[index]?.type)
            let replacement = directory.appending(path: "replacement")
            try Data("replaced \(index)".utf8).write(to: replacement)
            #expect(rename(replacement.path(percentEncoded: false), location.description) == 0)
        }
        var form = MultipartFormData(boundary: try .constant("sniffed"))
        for file in sniffed {
            let file = try #require(file)
            form.appendFile(file, name: "f", filenameBytes: nil)
        }
        let sent = try await RequestBody.multipart(form).collect()
        #expect(sent == (try await RequestBody.multipart(expected).collect()))
    }
}
