import Foundation
import TestSupport
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// The contract's "Directories": `name@dir -r` sends one part per regular
/// file under `dir`, named `name`, with `filename="dir/sub/file.ext"` (the
/// path relative to the directory's parent), in byte order of those paths;
/// loops, special files and an empty directory are bad input. Through the
/// built executable against the recording server, the body split by
/// ``ReceivedPart`` (no library code).
@Suite struct DirectoryUploadTests {
    /// `root/photos` with files at two depths, a name that sorts between
    /// a directory and its files (`a-b.txt`: `-` is 0x2D, `/` 0x2F), a
    /// non-ASCII name, a link to a file and a link to a directory outside.
    static func tree() throws -> (root: URL, files: [String: [UInt8]]) {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appending(path: "tree-\(UUID().uuidString)")
        let photos = root.appending(path: "photos")
        try manager.createDirectory(at: photos.appending(path: "a/sub"), withIntermediateDirectories: true)
        try manager.createDirectory(at: root.appending(path: "elsewhere"), withIntermediateDirectories: true)
        let files: [String: [UInt8]] = [
            "b.txt": Array("bee\n".utf8),
            "a-b.txt": Array("a dash b".utf8),
            "a/x.txt": [],
            "a/sub/y.bin": [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0xFF],
            "é.txt": Array("accent".utf8),
        ]
        for (path, bytes) in files {
            try Data(bytes).write(to: photos.appending(path: path))
        }
        try Data("outside".utf8).write(to: root.appending(path: "elsewhere/o.txt"))
        try manager.createSymbolicLink(atPath: photos.appending(path: "l.txt").path, withDestinationPath: "b.txt")
        try manager.createSymbolicLink(atPath: photos.appending(path: "linked").path, withDestinationPath: "../elsewhere")
        var all = files
        all["l.txt"] = files["b.txt"]
        all["linked/o.txt"] = Array("outside".utf8)
        return (root, all)
    }

    @Test func aDirectorySendsOnePartPerFileInByteOrderOfPaths() async throws {
        let (root, files) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(["--no-progress", "127.0.0.1:\(server.port)/up", "title=trip", "docs@photos", "-r"], currentDirectory: root)
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.first)
        #expect(request.header("Content-Length") == String(request.bodyByteCount))
        let parts = try ReceivedPart.parts(of: request)
        let expectedNames = files.keys.map { "photos/" + $0 }.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        #expect(expectedNames.first == "photos/a-b.txt" && expectedNames.last == "photos/é.txt")
        try #require(parts.count == 1 + files.count, "\(parts)")
        #expect(parts[0].content == Array("trip".utf8))
        for (part, name) in zip(parts.dropFirst(), expectedNames) {
            #expect(part.headers.first == "Content-Disposition: form-data; name=\"docs\"; filename=\"\(name)\"", "\(part)")
            #expect(part.filename == Array(name.utf8))
            #expect(part.content == files[String(name.dropFirst("photos/".count))], "\(name)")
        }
        #expect(parts.last(where: { $0.filename == Array("photos/a/sub/y.bin".utf8) })?.headers.last == "Content-Type: image/png")
    }

    /// The name a directory is sent under is its own, however it is typed.
    @Test func theDirectorysOwnNameLeadsEveryFilename() async throws {
        let (root, _) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await UploaderProcess.run(
            ["--dry-run", "--boundary", "B", "localhost:8080/", "d@.", "--recursive"],
            currentDirectory: root.appending(path: "photos/a")
        )
        #expect(result.status == 0, "\(result.standardError)")
        let body = result.outputText
        #expect(body.contains("name=\"d\"; filename=\"a/sub/y.bin\"") && body.contains("name=\"d\"; filename=\"a/x.txt\""), "\(body)")
    }

    @Test func aDirectoryWithoutRecursiveIsBadInputSayingWhatHelps() async throws {
        let (root, _) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "docs@photos"], currentDirectory: root)
        try await server.stop()
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: 'docs@photos': photos is a directory; add -r (--recursive) to send each file under it as a part\n")
        #expect(server.requests.isEmpty)
    }

    @Test func aFilenameForADirectoryIsRefused() async throws {
        let (root, _) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await UploaderProcess.run(["--dry-run", "localhost:8080/up", "docs@photos;filename=x.txt", "-r"], currentDirectory: root)
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: 'docs@photos': ;filename= names one file, and a directory sends each file under its own path; drop it\n")
        #expect(result.standardOutput.isEmpty)
    }

    /// `-o` naming a file the directory part sends is bad input, as for
    /// any input file: writing there would empty it before it is sent.
    @Test func outputNamingAFileUnderTheDirectoryIsBadInput() async throws {
        let (root, files) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let result = try await UploaderProcess.run(["--dry-run", "localhost:8080/up", "docs@photos", "-r", "-o", "photos/a/x.txt"], currentDirectory: root)
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: -o 'photos/a/x.txt': is also an input of this request ('photos/a/x.txt'); writing the response there would empty it before it is sent\n")
        #expect(try Data(contentsOf: root.appending(path: "photos/a/x.txt")) == Data(files["a/x.txt"] ?? [1]))
    }

    enum Hazard: String, CaseIterable {
        case linkToItsOwnFolder, linkToItself, fifo, socket, empty, onlyEmptyFolders, linkToNothing
        /// A FIFO met after 300 files were listed and are being sniffed as
        /// the walk goes on (a directory's files are handed over before its
        /// subdirectories are walked).
        case fifoWhileListedFilesAreSniffed
    }

    /// What no directory upload can send: exit 2, one line naming the path,
    /// and the server sees no request.
    @Test(arguments: Hazard.allCases)
    func aHazardInTheTreeIsBadInputNamingThePath(hazard: Hazard) async throws {
        let manager = FileManager.default
        let root = manager.temporaryDirectory.appending(path: "hazard-\(UUID().uuidString)")
        let tree = root.appending(path: "tree")
        try manager.createDirectory(at: tree.appending(path: "sub"), withIntermediateDirectories: true)
        defer { try? manager.removeItem(at: root) }
        if hazard != .empty && hazard != .onlyEmptyFolders {
            try Data("fine".utf8).write(to: tree.appending(path: "a.txt"))
        }
        let expected: String
        switch hazard {
        case .linkToItsOwnFolder:
            try manager.createSymbolicLink(atPath: tree.appending(path: "sub/up").path, withDestinationPath: "..")
            expected = "'f@tree': tree/sub/up is a symbolic link to a directory it is inside, a loop a directory upload cannot send"
        case .linkToItself:
            try manager.createSymbolicLink(atPath: tree.appending(path: "sub/self").path, withDestinationPath: "self")
            expected = "'f@tree': tree/sub/self is a symbolic link that loops; a directory upload follows links, so it cannot send a loop"
        case .fifo:
            #expect(mkfifo(tree.appending(path: "sub/pipe").path, 0o644) == 0)
            expected = "'f@tree': tree/sub/pipe is a FIFO, not a regular file; a directory upload sends regular files only"
        case .fifoWhileListedFilesAreSniffed:
            for index in 0..<300 {
                try Data("file \(index)\n".utf8).write(to: tree.appending(path: "f\(index).txt"))
            }
            #expect(mkfifo(tree.appending(path: "sub/pipe").path, 0o644) == 0)
            expected = "'f@tree': tree/sub/pipe is a FIFO, not a regular file; a directory upload sends regular files only"
        case .socket:
            let bound = try UnixSocket(path: tree.appending(path: "sub/sock").path)
            defer { bound.close() }
            expected = "'f@tree': tree/sub/sock is a socket, not a regular file; a directory upload sends regular files only"
        case .empty:
            try manager.removeItem(at: tree.appending(path: "sub"))
            expected = "'f@tree': the directory tree holds no files to send"
        case .onlyEmptyFolders:
            expected = "'f@tree': the directory tree holds no files to send"
        case .linkToNothing:
            try manager.createSymbolicLink(atPath: tree.appending(path: "sub/gone").path, withDestinationPath: "nowhere")
            expected = "'f@tree': tree/sub/gone is a symbolic link to nothing (its target does not exist)"
        }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "f@tree", "-r"], currentDirectory: root)
        try await server.stop()
        #expect(result.status == 2, "\(hazard): \(result.standardError)")
        #expect(result.standardError == "uploader: \(expected)\n")
        #expect(server.requests.isEmpty)
    }

    /// Files are opened one at a time as their parts are sent: 300 files go
    /// in one request under a limit of 32 open descriptors.
    @Test func aLargeTreeNeedsOneDescriptorForItsFiles() async throws {
        let root = FileManager.default.temporaryDirectory.appending(path: "wide-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        for index in 0..<300 {
            let folder = root.appending(path: "tree/d\(index % 10)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try Data("file \(index)\n".utf8).write(to: folder.appending(path: "f\(index).txt"))
        }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.runShell(
            "ulimit -n 32 && \"$UPLOADER\" --no-progress 127.0.0.1:\(server.port)/up 'f@tree' -r",
            currentDirectory: root
        )
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        let request = try #require(server.requests.first)
        #expect(try ReceivedPart.parts(of: request).count == 300)
    }

    /// One progress bar for the whole transfer, counting the files sent.
    @Test func theProgressBarCountsFilesForTheWholeTransfer() async throws {
        let (root, files) = try Self.tree()
        defer { try? FileManager.default.removeItem(at: root) }
        let server = try await TestHTTPServer.start()
        let result = try await UploaderProcess.run(["--progress", "127.0.0.1:\(server.port)/up", "docs@photos", "-r"], currentDirectory: root)
        try await server.stop()
        #expect(result.status == 0, "\(result.standardError)")
        // The last frame is drawn when the body is complete.
        #expect(result.standardError.contains("100% [####################] \(files.count)/\(files.count) files  "), "\(result.standardError.debugDescription)")
        #expect(result.standardError.hasSuffix("\n"))
    }
}

/// A listening Unix-domain socket at a path, for a special file in a tree.
private struct UnixSocket {
    let descriptor: Int32

    init(path: String) throws {
        descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard descriptor >= 0, bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw SpawnError(description: "cannot make a socket at \(path)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            buffer.copyBytes(from: bytes)
        }
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw SpawnError(description: "cannot bind a socket at \(path)") }
    }

    func close() {
        _ = Glibc.close(descriptor)
    }
}
