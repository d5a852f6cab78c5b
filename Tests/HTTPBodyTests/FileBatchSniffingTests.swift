import Foundation
@testable import HTTPBody
import SystemPackage
import Testing
import TestSupport

/// ``MediaTypeSniffer/mediaTypes(ofFilesAt:lanes:)``: many files typed on
/// several lanes give each file the answer sniffing it alone gives, in the
/// files' order, and `nil` for a file that cannot be read.
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
        let types = StandardMediaTypeSniffer().mediaTypes(ofFilesAt: locations, lanes: lanes)
        #expect(types.count == locations.count)
        for (index, (type, expected)) in zip(types, alone).enumerated() {
            #expect(type == expected, "\(locations[index]): \(String(describing: type)), alone \(String(describing: expected))")
        }
    }

    @Test func noFilesGiveNoTypes() {
        #expect(StandardMediaTypeSniffer().mediaTypes(ofFilesAt: [], lanes: 4).isEmpty)
    }
}
