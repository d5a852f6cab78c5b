import Foundation
import TestSupport
import Testing

/// A request of many files: the uploader types them on every core before
/// the form is built (#29), so each part must still carry its own file's
/// type, in order, and a file that cannot be read among them must still be
/// reported by its item, with nothing sent. Through the built executable
/// against the recording server, the body split by ``ReceivedPart``.
@Suite struct ManyFilesTests {
    /// One kind of file: its name, bytes, and the type its part must say.
    struct Kind {
        var suffix: String
        var bytes: [UInt8]
        var type: String
    }

    static let kinds: [Kind] = [
        Kind(suffix: "", bytes: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 0x0D, 0x49, 0x48, 0x44, 0x52], type: "image/png"),
        Kind(suffix: "", bytes: Array("plain words, no extension\n".utf8), type: "text/plain"),
        Kind(suffix: ".json", bytes: Array(#"{"a": [1, 2]}"#.utf8), type: "application/json"),
        // Bytes no signature names and that are not text: libmagic's turn.
        Kind(suffix: "", bytes: (0..<600).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ 13) }, type: "application/octet-stream"),
        Kind(suffix: ".pdf", bytes: Array("%PDF-1.4\n%\u{e2}\u{e3}\n1 0 obj\n".utf8), type: "application/pdf"),
    ]

    /// `count` files in a new directory, cycling through ``kinds``; their
    /// names and the type each must be sent with, in order.
    static func files(_ count: Int) throws -> (directory: URL, names: [String], types: [String]) {
        let directory = FileManager.default.temporaryDirectory.appending(path: "many-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        var names: [String] = []
        var types: [String] = []
        for index in 0..<count {
            let kind = kinds[index % kinds.count]
            let name = "file\(index)\(kind.suffix)"
            try Data(kind.bytes).write(to: directory.appending(path: name))
            names.append(name)
            types.append(kind.type)
        }
        return (directory, names, types)
    }

    @Test func eachOfManyPartsCarriesItsOwnFilesType() async throws {
        let (directory, names, types) = try Self.files(101)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        let items = names.enumerated().map { "f\($0.offset)@\($0.element)" }
        // One type declared among them: it wins over sniffing, for its part only.
        let declared = 37
        var arguments = ["--no-progress", "127.0.0.1:\(server.port)/up"] + items
        arguments[2 + declared] += ";type=image/x-declared"
        let result = try await UploaderProcess.run(arguments, currentDirectory: directory)
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let parts = try ReceivedPart.parts(of: try #require(server.requests.first))
        try #require(parts.count == names.count)
        for (index, part) in parts.enumerated() {
            #expect(part.filename == Array(names[index].utf8))
            let expected = index == declared ? "image/x-declared" : types[index]
            #expect(part.headers.last == "Content-Type: \(expected)", "part \(index): \(part.headers)")
        }
    }

    @Test func eachFileOfALargeDirectoryCarriesItsOwnType() async throws {
        let (directory, names, types) = try Self.files(83)
        defer { try? FileManager.default.removeItem(at: directory) }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(
            ["--no-progress", "127.0.0.1:\(server.port)/up", "docs@\(directory.lastPathComponent)", "-r"],
            currentDirectory: directory.deletingLastPathComponent()
        )
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let parts = try ReceivedPart.parts(of: try #require(server.requests.first))
        let typeOfName = Dictionary(uniqueKeysWithValues: zip(names, types))
        try #require(parts.count == names.count)
        for part in parts {
            let filename = String(decoding: part.filename ?? [], as: UTF8.self)
            let name = String(filename.split(separator: "/").last ?? "")
            #expect(part.headers.last == "Content-Type: \(typeOfName[name] ?? "?")", "\(filename): \(part.headers)")
        }
    }

    /// A tree of 600 files in nested directories, more than are listed
    /// before the sniff starts beside the walk: each part still carries its
    /// own file's type and bytes, in byte order of the paths.
    @Test func eachFileOfATreeSniffedAsItIsWalkedCarriesItsOwnType() async throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "walked-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        var expected: [(name: String, type: String, bytes: [UInt8])] = []
        for index in 0..<600 {
            let kind = Self.kinds[index % Self.kinds.count]
            let folder = index % 3 == 0 ? "d\(index % 4)" : "d\(index % 4)/e\(index % 5)"
            try FileManager.default.createDirectory(at: root.appending(path: "tree/\(folder)"), withIntermediateDirectories: true)
            let name = "\(folder)/file\(index)\(kind.suffix)"
            // Text and arbitrary bytes stay what they are with the index
            // after them, so two files of those kinds differ.
            let marked = kind.type == "text/plain" || kind.type == "application/octet-stream"
            let bytes = kind.bytes + (marked ? Array("file \(index)\n".utf8) : [])
            try Data(bytes).write(to: root.appending(path: "tree/\(name)"))
            expected.append(("tree/" + name, kind.type, bytes))
        }
        expected.sort { Array($0.name.utf8).lexicographicallyPrecedes(Array($1.name.utf8)) }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(["--no-progress", "127.0.0.1:\(server.port)/up", "docs@tree", "-r"], currentDirectory: root)
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let parts = try ReceivedPart.parts(of: try #require(server.requests.first))
        try #require(parts.count == expected.count)
        for (part, file) in zip(parts, expected) {
            #expect(part.filename == Array(file.name.utf8))
            #expect(part.headers.last == "Content-Type: \(file.type)", "\(file.name): \(part.headers)")
            #expect(part.content == file.bytes, "\(file.name)")
        }
    }

    @Test func aMissingFileAmongManyIsNamedAndNothingIsSent() async throws {
        let (directory, names, _) = try Self.files(64)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.removeItem(at: directory.appending(path: names[41]))
        let server = try await TestHTTPServer.start()
        let items = names.enumerated().map { "f\($0.offset)@\($0.element)" }
        let result = try await UploaderProcess.run(["--no-progress", "127.0.0.1:\(server.port)/up"] + items, currentDirectory: directory)
        try await server.stop()
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("'f41@\(names[41])'"), "\(result.standardError)")
        #expect(server.requests.isEmpty)
    }

    @Test func aDirectoryAmongManyStillAsksForRecursive() async throws {
        let (directory, names, _) = try Self.files(40)
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory.appending(path: "sub"), withIntermediateDirectories: true)
        var items = names.enumerated().map { "f\($0.offset)@\($0.element)" }
        items.insert("d@sub", at: 20)
        let result = try await UploaderProcess.run(["--dry-run", "localhost:8080/up"] + items, currentDirectory: directory)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("'d@sub': sub is a directory; add -r (--recursive)"), "\(result.standardError)")
    }
}
