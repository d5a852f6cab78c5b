import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// `uploader s3://BUCKET/PREFIX/ DIR --recursive` (contract, "The real
/// network (version 6)", object stores) against moto with signatures
/// checked; boto3 reads back every object and its bytes are compared with
/// the file's.
@Suite(.serialized) struct UploaderRecursiveObjectStorageTests {
    private static let shared = Task { try await MotoServer.start() }

    /// What boto3 read back: every object of the bucket, by key.
    struct Listing: Decodable {
        struct Object: Decodable {
            let size: Int
            let sha256: String
        }
        let objects: [String: Object]
    }

    let server: MotoServer
    let boto3: Boto3Client
    let bucket: String
    let folder: URL

    init() async throws {
        server = try await Self.shared.value
        boto3 = Boto3Client(server: server)
        bucket = try await boto3.makeBucket(prefix: "tree")
        folder = FileManager.default.temporaryDirectory.appending(path: "s3-tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    var environment: [String: String] { boto3.environment }

    /// Every object in the bucket, read back by boto3.
    func stored() async throws -> [String: Listing.Object] {
        try JSONDecoder().decode(Listing.self, from: Data(try await boto3("list", bucket).utf8)).objects
    }

    func upload(_ arguments: [String]) async throws -> UploaderProcess.Result {
        try await UploaderProcess.run(arguments + ["--endpoint-url", server.endpoint.absoluteString, "--no-progress"], environment: environment)
    }

    /// Writes `size` bytes that differ from file to file under `folder`.
    @discardableResult
    func write(_ relativePath: String, size: Int, in root: URL) throws -> URL {
        let file = root.appending(path: relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        var state = UInt64(truncatingIfNeeded: relativePath.hashValue) | 1
        var bytes = [UInt8](repeating: 0, count: size)
        for index in bytes.indices {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            bytes[index] = UInt8(truncatingIfNeeded: state)
        }
        try Data(bytes).write(to: file)
        return file
    }

    /// A large file (UploadFixture's bytes, written fast) moved to `relativePath` under `root`.
    func writeLarge(_ relativePath: String, size: Int, in root: URL) throws -> URL {
        let fixture = try UploadFixture(size: size)
        defer { fixture.remove() }
        let file = root.appending(path: relativePath)
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.moveItem(at: fixture.file, to: file)
        return file
    }

    /// The tree's files (links followed), relative path to SHA-256.
    func digests(of files: [String: URL]) throws -> [String: String] {
        try files.mapValues { try FileDigest.sha256(of: $0) }
    }

    @Test func everyFileArrivesUnderThePrefixWithItsBytes() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appending(path: "site")
        var files: [String: URL] = [:]
        for (path, size) in [("index.html", 1_000), ("css/site.css", 40_000), ("img/photos/ünï cödé.jpg", 70_000), ("empty.txt", 0), ("deep/a/b/c/d.bin", 3)] {
            files[path] = try write(path, size: size, in: tree)
        }
        // Past the threshold: a multipart upload of three parts, as a single upload would send it.
        files["video/big.bin"] = try writeLarge("video/big.bin", size: 5 * 1024 * 1024 * 2 + 77, in: tree)
        // A link to a file outside the tree is followed, as the contract's directories are.
        let outside = try write("outside.txt", size: 500, in: folder)
        try FileManager.default.createSymbolicLink(at: tree.appending(path: "linked.txt"), withDestinationURL: outside)
        files["linked.txt"] = outside

        let result = try await upload([
            "s3://\(bucket)/backup/2026", tree.path, "--recursive", "--concurrency", "3",
            "--multipart-threshold", "5M", "--part-size", "5M", "--state-dir", folder.appending(path: "state").path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        // The AWS CLI's line for each file, in the order they finished.
        let lines = result.outputText.split(separator: "\n").map(String.init).sorted()
        #expect(lines == files.keys.map { "upload: \(tree.path)/\($0) to s3://\(bucket)/backup/2026/\($0)" }.sorted(), "\(result.outputText)")
        #expect(result.standardError.hasPrefix("uploaded 7 files (10."), "\(result.standardError)")
        #expect(result.standardError.hasSuffix(" to s3://\(bucket)/backup/2026/\n"), "\(result.standardError)")

        let objects = try await stored()
        let expected = try digests(of: files)
        #expect(Set(objects.keys) == Set(expected.keys.map { "backup/2026/" + $0 }))
        for (path, digest) in expected {
            #expect(objects["backup/2026/" + path]?.sha256 == digest, "\(path)")
        }
        #expect(try await boto3.unfinished(in: bucket).isEmpty)
    }

    /// `--concurrency` bounds the requests in flight across all the files
    /// together, as boto3's transfer manager bounds them with its pool of
    /// threads: three files of three parts, 2 at a time, have at most 2
    /// requests in flight, where 2 files each sending 2 parts at once had 4
    /// (each part holding its buffers). The proxy counts the requests.
    @Test func concurrencyBoundsTheRequestsOfAllFilesTogether() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appending(path: "tree")
        var files: [String: URL] = [:]
        for index in 1...3 {
            files["blob-\(index).bin"] = try writeLarge("blob-\(index).bin", size: 5 * 1024 * 1024 * 2 + 1_000 * index, in: tree)
        }
        let proxy = try await FaultProxy.start(target: server.endpoint, cutAfter: nil)
        defer { proxy.stop() }

        let result = try await UploaderProcess.run([
            "s3://\(bucket)/blobs/", tree.path, "--recursive", "--concurrency", "2", "--part-size", "5M",
            "--state-dir", folder.appending(path: "state").path, "--endpoint-url", proxy.url().absoluteString, "--no-progress",
        ], environment: environment)
        #expect(result.status == 0, "\(result.standardError)")
        let peak = try await proxy.stats().peakRequestsInFlight
        #expect((1...2).contains(peak), "\(peak) requests in flight at once for --concurrency 2")

        let objects = try await stored()
        for (path, digest) in try digests(of: files) {
            #expect(objects["blobs/" + path]?.sha256 == digest, "\(path)")
        }
    }

    /// A file that cannot be read fails alone: the others are uploaded,
    /// the summary counts it, and the exit status is its (2). Run as an
    /// unprivileged user when the tests run as root, who reads any file.
    @Test(.enabled(if: geteuid() != 0 || FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv")))
    func anUnreadableFileFailsAloneAndTheExitStatusIsTheWorst() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appending(path: "tree")
        var files: [String: URL] = [:]
        for path in ["a.txt", "b/locked.bin", "b/z.txt", "c.txt"] {
            files[path] = try write(path, size: 3_000, in: tree)
        }
        #expect(chmod(files["b/locked.bin"]?.path ?? "", 0) == 0)
        for item in [folder, tree, tree.appending(path: "b")] { chmod(item.path, 0o755) }
        let arguments = [
            "s3://\(bucket)/p/", tree.path, "-r", "--concurrency", "1", "--endpoint-url", server.endpoint.absoluteString, "--no-progress",
        ]
        let exports = environment.map { "\($0.key)='\($0.value)'" }.joined(separator: " ")
        let drop = geteuid() == 0 ? "/usr/bin/setpriv --reuid=65534 --regid=65534 --clear-groups" : ""
        let result = try await UploaderProcess.runShell("\(exports) \(drop) \"$UPLOADER\" \(arguments.map { "'\($0)'" }.joined(separator: " "))")
        #expect(result.status == 2, "\(result.standardError)")
        let lines = result.standardError.split(separator: "\n")
        #expect(lines.count == 2, "\(result.standardError)")
        #expect(lines.first?.contains("uploader: '\(files["b/locked.bin"]?.path ?? "")': ") == true, "\(result.standardError)")
        #expect(lines.first?.contains("ermission denied") == true, "\(result.standardError)")
        #expect(lines.last == "uploader: uploaded 3 of 4 files (8.79 KiB) to s3://\(bucket)/p/; 1 failed", "\(result.standardError)")
        let objects = try await stored()
        #expect(Set(objects.keys) == ["p/a.txt", "p/b/z.txt", "p/c.txt"])
        for path in ["a.txt", "b/z.txt", "c.txt"] {
            #expect(objects["p/" + path]?.sha256 == (try FileDigest.sha256(of: files[path] ?? folder)), "\(path)")
        }
    }

    /// What cannot be uploaded is found before anything is sent.
    @Test(arguments: ["link loop", "self link", "FIFO", "empty", "dangling link", "not a directory", "name not UTF-8"])
    func aTreeThatCannotBeUploadedExitsTwoNamingThePathAndUploadsNothing(_ kind: String) async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appending(path: "tree")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        var root = tree
        let culprit: String
        let words: String
        switch kind {
        case "link loop":
            try write("a.txt", size: 10, in: tree)
            try FileManager.default.createDirectory(at: tree.appending(path: "sub"), withIntermediateDirectories: true)
            try FileManager.default.createSymbolicLink(atPath: tree.appending(path: "sub/up").path, withDestinationPath: "..")
            (culprit, words) = (tree.path + "/sub/up", "a symbolic link loop")
        case "self link":
            try write("a.txt", size: 10, in: tree)
            try FileManager.default.createSymbolicLink(atPath: tree.appending(path: "me").path, withDestinationPath: "me")
            (culprit, words) = (tree.path + "/me", "a symbolic link loop")
        case "FIFO":
            try write("a.txt", size: 10, in: tree)
            try FileManager.default.createDirectory(at: tree.appending(path: "q"), withIntermediateDirectories: true)
            #expect(mkfifo(tree.path + "/q/pipe", 0o600) == 0)
            (culprit, words) = (tree.path + "/q/pipe", "is a FIFO, not a regular file")
        case "empty":
            try FileManager.default.createDirectory(at: tree.appending(path: "only/folders"), withIntermediateDirectories: true)
            (culprit, words) = (tree.path, "holds no files to upload")
        case "dangling link":
            try write("a.txt", size: 10, in: tree)
            try FileManager.default.createSymbolicLink(atPath: tree.appending(path: "gone").path, withDestinationPath: "nowhere")
            (culprit, words) = (tree.path + "/gone", "a symbolic link to nothing")
        case "name not UTF-8":
            try write("a.txt", size: 10, in: tree)
            // `sub/\xff.txt`: a name of bytes, which an object's key (UTF-8) cannot carry.
            try FileManager.default.createDirectory(at: tree.appending(path: "sub"), withIntermediateDirectories: true)
            let name = Array((tree.path + "/sub/").utf8) + [0xFF] + Array(".txt".utf8) + [0]
            let descriptor = name.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { $0.baseAddress.map { open($0, O_CREAT | O_WRONLY, 0o600) } ?? -1 }
            }
            try #require(descriptor >= 0)
            close(descriptor)
            (culprit, words) = (tree.path + "/sub/\\xff.txt", "the name is not UTF-8, and an object's key must be")
        default:
            root = try write("a.txt", size: 10, in: tree)
            (culprit, words) = (root.path, "is not a directory")
        }
        let result = try await upload(["s3://\(bucket)/p/", root.path, "--recursive"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("uploader: '\(culprit)': \(words)"), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(try await stored().isEmpty)
    }

    @Test func misusedRecursiveUploadsAreBadInputAndSendNothing() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appending(path: "tree")
        try write("a.txt", size: 10, in: tree)
        let cases: [([String], String)] = [
            (["s3://\(bucket)/p/", tree.path], "is a directory, not a file; add --recursive to upload the files in it"),
            (["s3://\(bucket)/p/", tree.path, "-r", "-o", folder.appending(path: "out").path], "-o/--output does not apply to recursive s3:// uploads, which write a summary"),
            (["s3://\(bucket)/p/", tree.path, tree.path, "-r"], "a recursive s3:// upload sends one directory"),
            (["s3://\(bucket)/p/", "-", "-r"], "standard input cannot be uploaded with --recursive"),
            (["s3://Bad_Bucket/p/", tree.path, "-r"], "Bad_Bucket"),
        ]
        for (arguments, words) in cases {
            let result = try await upload(arguments)
            #expect(result.status == 2, "\(arguments): \(result.standardError)")
            #expect(result.standardError.contains(words), "\(arguments): \(result.standardError)")
        }
        #expect(try await stored().isEmpty)
    }

    /// Each file is resumable as a single upload is: a run killed while a
    /// large file is half sent leaves its state, and the same command sends
    /// only what the store does not hold.
    @Test func aKilledRunResumesWhereTheStoreLeftOff() async throws {
        defer { try? FileManager.default.removeItem(at: folder) }
        let tree = folder.appending(path: "tree")
        let size = KilledMultipartUpload.partSize * 5 + 77
        var files: [String: URL] = [:]
        files["large.bin"] = try writeLarge("large.bin", size: size, in: tree)
        files["small.txt"] = try write("small.txt", size: 2_000, in: tree)
        let state = folder.appending(path: "state")
        let killed = KilledMultipartUpload(boto3: boto3, bucket: bucket, key: "r/large.bin", size: size, stateDirectory: state)
        try await killed.run(["s3://\(bucket)/r/", tree.path, "-r"])
        let objects = try await stored()
        for (path, digest) in try digests(of: files) {
            #expect(objects["r/" + path]?.sha256 == digest, "\(path)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: state.path).filter { $0.hasSuffix(".json") }.isEmpty)
    }
}
