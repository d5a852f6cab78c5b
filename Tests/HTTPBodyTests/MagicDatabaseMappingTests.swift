import Foundation
@testable import HTTPBody
import Testing
import TestSupport

/// libmagic's compiled database is mapped once for all the handles of a pool,
/// and its pages are given back while no handle is in use. Each test loads a
/// copy of the system's database from a folder of its own, so the mappings
/// it counts in `/proc/self/smaps` are its pool's alone (other tests sniff
/// through the shared pool at the same time).
@Suite struct MagicDatabaseMappingTests {
    /// The system's compiled database, where libmagic's packages put it.
    static let systemDatabase: URL? = [
        "/usr/lib/file/magic.mgc", "/usr/share/misc/magic.mgc", "/usr/share/file/magic.mgc",
        "/opt/homebrew/share/misc/magic.mgc", "/usr/local/share/misc/magic.mgc",
    ].map { URL(filePath: $0) }.first { FileManager.default.isReadableFile(atPath: $0.path) }

    /// A folder with a copy of the system's database, `db.mgc`.
    final class DatabaseCopy {
        let folder: URL
        var database: URL { folder.appending(path: "db.mgc") }

        init() throws {
            let system = try #require(MagicDatabaseMappingTests.systemDatabase)
            folder = FileManager.default.temporaryDirectory.appending(path: "magic-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: system, to: database)
        }

        deinit { try? FileManager.default.removeItem(at: folder) }
    }

    /// Whether the kernel tells a process's mappings (Linux).
    static let hasSmaps = FileManager.default.isReadableFile(atPath: "/proc/self/smaps")

    /// The mappings of `file` in this process and the memory each holds
    /// resident (KiB), from `/proc/self/smaps`.
    static func residentKiB(ofMappingsOf file: URL) throws -> [Int] {
        let path = file.resolvingSymlinksInPath().path
        let smaps = try String(decoding: readToEnd("/proc/self/smaps"), as: UTF8.self)
        var sizes: [Int] = []
        var inMapping = false
        for line in smaps.split(separator: "\n") {
            let fields = line.split(separator: " ")
            if fields.count >= 5, fields[0].contains("-"), fields[0].allSatisfy({ $0.isHexDigit || $0 == "-" }) {
                inMapping = line.hasSuffix(" " + path)
            } else if inMapping, line.hasPrefix("Rss:") {
                sizes.append(Int(line.split(separator: " ")[1]) ?? -1)
            }
        }
        return sizes
    }

    /// The whole of a file whose size `stat` does not tell (`/proc`).
    static func readToEnd(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw CocoaError(.fileReadNoSuchFile) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += buffer[..<count]
        }
        return bytes
    }

    /// Bytes no rule names: libmagic reads nearly its whole database for them.
    static let noMatch: [UInt8] = (0..<4096).map { UInt8(($0 &* 7_919 &+ 13) % 251) }

    /// An ELF executable's header, which only libmagic names here.
    static let elf: [UInt8] = [
        0x7F, 0x45, 0x4C, 0x46, 0x02, 0x01, 0x01, 0x00, 0, 0, 0, 0, 0, 0, 0, 0,
        0x02, 0x00, 0x3E, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x10, 0x40, 0, 0, 0, 0, 0,
        0x40, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
        0, 0, 0, 0, 0x40, 0x00, 0x38, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00, 0x00, 0x00,
    ] + [UInt8](repeating: 0xA5, count: 960)

    /// Contents libmagic types differently, from fixtures and by hand.
    static func samples() throws -> [[UInt8]] {
        let mime = fixtures.appending(path: "MIME")
        let files = try ["bundle", "pixel", "photo.bin", "data.gz", "archive", "notes"].map { name in
            try [UInt8](Data(contentsOf: mime.appending(path: name)))
        }
        return files + [noMatch, elf, Array("#!/bin/sh\necho hi\n".utf8), Array("<?xml version=\"1.0\"?>\n<a/>\n".utf8)]
    }

    /// Two handles in use at once read one mapping of the database, where
    /// each used to map its own (and hold its 8 MB resident).
    @Test(.enabled(if: hasSmaps)) func handlesInUseAtOnceShareOneMapping() async throws {
        let copy = try DatabaseCopy()
        let database = try #require(MagicDatabase(maximumCount: 2, magicFile: copy.database.path))
        #expect(database.sharesOneMapping)
        let stop = LockedValue(false)
        let answers = LockedValue<Set<String>>([])
        let finished = LockedValue(0)
        // Threads of their own: Linux's Dispatch adds a worker to its pool
        // only when one blocks, so two busy loops queued there ran one at a time.
        for _ in 0..<2 {
            Thread {
                while !stop.withLock({ $0 }) {
                    let type = database.mediaType(of: Self.noMatch)?.essence ?? "nil"
                    answers.withLock { _ = $0.insert(type) }
                }
                finished.withLock { $0 += 1 }
            }.start()
        }
        // The sniffers keep both handles open (they close only once idle).
        let deadline = ContinuousClock.now + TestTime.liveness
        while database.highestHandleCount < 2, ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(1))
        }
        let openHandles = database.openHandleCount
        let mappings = try Self.residentKiB(ofMappingsOf: copy.database)
        stop.withLock { $0 = true }
        while finished.withLock({ $0 }) < 2 {
            try await Task.sleep(for: .milliseconds(1))
        }
        #expect(database.highestHandleCount == 2)
        #expect(openHandles == 2)
        #expect(mappings.count == 1)
        #expect(answers.withLock { $0 } == ["application/octet-stream"])
    }

    /// Once no handle is in use the pool gives the database's pages back
    /// (the first time at once), keeping its mapping, and its answers are
    /// the same before and after, and the same as libmagic's own loading
    /// gives.
    @Test(.enabled(if: hasSmaps)) func givesThePagesBackWhenIdleAndAnswersAlike() throws {
        let copy = try DatabaseCopy()
        let database = try #require(MagicDatabase(magicFile: copy.database.path))
        #expect(database.mediaType(of: Self.noMatch)?.essence == "application/octet-stream")
        // Read right after the search, which touched nearly all of the database.
        let afterFirst = try Self.residentKiB(ofMappingsOf: copy.database)
        #expect(afterFirst == [0])

        let samples = try Self.samples()
        let before = samples.map { database.mediaType(of: $0)?.essence }
        database.releaseIdleHandlesNow()
        #expect(try Self.residentKiB(ofMappingsOf: copy.database) == [0])
        let after = samples.map { database.mediaType(of: $0)?.essence }
        #expect(after == before)

        // A directory in the path list is libmagic's to read: each handle loads the list itself.
        let empty = copy.folder.appending(path: "empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: false)
        let own = try #require(MagicDatabase(magicFile: "\(copy.database.path):\(empty.path)"))
        #expect(!own.sharesOneMapping)
        #expect(samples.map { own.mediaType(of: $0)?.essence } == before)
        #expect(before.contains("application/x-executable") && before.contains("application/x-tar"))
    }

    /// A path list of a compiled database and a file of comments only (as
    /// Debian's `/etc/magic`) is mapped; one with a text rule is loaded by
    /// libmagic, and the rule is followed.
    @Test func localMagicInTextIsLibmagicsToLoad() throws {
        let copy = try DatabaseCopy()
        let comments = copy.folder.appending(path: "comments")
        try Data("# Magic local data for file(1) command.\n\n# Insert here your local magic data.\n".utf8).write(to: comments)
        let commented = try #require(MagicDatabase(magicFile: "\(comments.path):\(copy.database.path)"))
        #expect(commented.sharesOneMapping)

        let rule = copy.folder.appending(path: "local")
        try Data("0\tstring\tSWIFTMAGICTEST\tSwift magic test\n!:mime\tapplication/x-swift-magic-test\n".utf8).write(to: rule)
        let local = try #require(MagicDatabase(magicFile: "\(rule.path):\(copy.database.path)"))
        #expect(!local.sharesOneMapping)
        #expect(local.mediaType(of: Array("SWIFTMAGICTEST".utf8) + [0, 1, 2, 0xFF])?.essence == "application/x-swift-magic-test")
        #expect(local.mediaType(of: Self.elf)?.essence == "application/x-executable")
    }
}
