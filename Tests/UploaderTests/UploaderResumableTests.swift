import Foundation
#if canImport(Glibc)
import Glibc
#endif
import TestSupport
import Testing

/// `--resumable` and `--tus` as the contract describes them ("Resumable
/// uploads (version 3)"): a 256 MiB upload killed with SIGKILL at a random
/// point and resumed by running the same command, and one that survives
/// three cut connections in a single run, each against a real server with
/// a counting proxy in front.
@Suite(.serialized) struct UploaderResumableTests {
    static let size = 256 << 20
    static let tusChunk = 8 << 20

    /// The server's record of a completed upload: its size and digest, and
    /// for the draft's server the folder that holds the request's head.
    struct Stored: Decodable {
        let bytes: Int64
        let sha256: String
        var upload: String?
    }

    enum UploadProtocol: String, CaseIterable, Sendable {
        case draft, tus
    }

    /// A server of `kind` behind a proxy that cuts `cuts` connections after
    /// `cutAfter` bytes each, for the length of `body`, which is handed the
    /// URL to upload to, a reader of the server's record of the upload (from
    /// the uploader's output, for the draft), and the proxy.
    static func withServer<Result>(
        _ kind: UploadProtocol,
        cutAfter: Int? = nil,
        cuts: Int = 0,
        _ body: (_ url: URL, _ stored: @escaping @Sendable (String) throws -> Stored?, _ proxy: FaultProxy) async throws -> Result
    ) async throws -> Result {
        switch kind {
        case .draft:
            let server = try await ResumableUploadServer.start()
            defer { server.stop() }
            let proxy = try await FaultProxy.start(target: server.url(), cutAfter: cutAfter, cuts: cuts)
            defer { proxy.stop() }
            return try await body(proxy.url(path: "/files/video.bin"), { output in
                var stored = try JSONDecoder().decode(Stored.self, from: Data(output.utf8))
                stored.upload = stored.upload.map { server.storage.appending(path: $0).appending(path: "request.json").path }
                return stored
            }, proxy)
        case .tus:
            let server = try await TusServer.start(maxChunkBytes: tusChunk + 1024)
            defer { server.stop() }
            let proxy = try await FaultProxy.start(target: server.url(), cutAfter: cutAfter, cuts: cuts)
            defer { proxy.stop() }
            return try await body(proxy.url(path: "/uploads"), { _ in
                try server.completedUpload(named: "video.bin").map { Stored(bytes: $0.bytes, sha256: $0.sha256) }
            }, proxy)
        }
    }

    /// The digest the server must have: the file's for tus; for the draft,
    /// the multipart body's, built again by `--dry-run` with the boundary
    /// the server received (the first run chose it at random, and the
    /// resumed runs must have used the same).
    static func expectedDigest(_ kind: UploadProtocol, stored: Stored, fixture: UploadFixture, url: URL) async throws -> String {
        guard kind == .draft else { return fixture.sha256 }
        let head = try JSONDecoder().decode(StoredHead.self, from: Data(contentsOf: URL(filePath: try #require(stored.upload))))
        let contentType = try #require(head.headers.first { $0.first?.lowercased() == "content-type" }?.last)
        let boundary = try #require(contentType.components(separatedBy: "boundary=").last)
        let request = fixture.folder.appending(path: "expected.http")
        let dryRun = try await UploaderProcess.run(["--dry-run", "--boundary", boundary, url.absoluteString, "video@\(fixture.file.path)", "title=Holiday", "-o", request.path])
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        return try FileDigest.sha256(of: request, skippingHead: true)
    }

    /// The head the draft's server kept of an upload: `[name, value]` pairs.
    struct StoredHead: Decodable {
        let headers: [[String]]
    }

    static func arguments(_ kind: UploadProtocol, url: URL, file: URL, stateDirectory: URL, chunked: Bool = false) -> [String] {
        // --timeout: an append the server stops reading is given up and
        // resumed (NIOResumableUpload, resumed on the heels of a killed
        // connection, was seen to stop reading the new one under load).
        var arguments = [
            kind == .draft ? "--resumable" : "--tus", url.absoluteString, "video@\(file.path)",
            "--state-dir", stateDirectory.path, "--no-progress", "--timeout", "30",
        ]
        if chunked, kind == .draft { arguments += ["--chunk-size", "16M"] }
        if kind == .draft { arguments += ["title=Holiday"] }
        return arguments
    }

    /// `-v` shows every request and response head of the upload (issue 24.14).
    @Test(arguments: UploadProtocol.allCases)
    func verboseShowsEveryHead(kind: UploadProtocol) async throws {
        let fixture = try UploadFixture(size: 64 * 1024, name: "video.bin")
        defer { fixture.remove() }
        try await Self.withServer(kind) { url, _, _ in
            let arguments = Self.arguments(kind, url: url, file: fixture.file, stateDirectory: fixture.folder.appending(path: "state"))
            let result = try await UploaderProcess.run(["-v"] + arguments + ["Authorization:Bearer bearer-secret"])
            #expect(result.status == 0, "\(result.standardError)")
            let shown = result.standardError
            #expect(!shown.contains("bearer-secret"), "\(shown)")
            #expect(shown.contains("Authorization: <redacted>\r\n"), "\(shown)")
            #expect(shown.contains("POST /"), "\(shown)")
            if kind == .tus { #expect(shown.contains("PATCH /"), "\(shown)") }
            let requests = shown.components(separatedBy: " HTTP/1.1\r\n").count - 1
            let responses = shown.components(separatedBy: "\r\n\r\nHTTP/1.1 ").count - 1
            #expect(requests >= 2 && responses == requests, "\(requests) requests, \(responses) responses: \(shown.replacingOccurrences(of: "\r", with: ""))")
        }
    }

    @Test("Killed with SIGKILL at a random point, the same command finishes the upload", arguments: UploadProtocol.allCases)
    func killedAndResumed(kind: UploadProtocol) async throws {
        let fixture = try UploadFixture(size: Self.size, name: "video.bin")
        defer { fixture.remove() }
        let stateDirectory = fixture.folder.appending(path: "state")
        try await Self.withServer(kind) { url, stored, proxy in
            // In chunks, so the saved offset tells when to kill (the draft
            // sends the whole remainder in one append by default).
            let arguments = Self.arguments(kind, url: url, file: fixture.file, stateDirectory: stateDirectory, chunked: true)
            let killAt = Int64.random(in: Int64(Self.size / 10)...Int64(Self.size * 6 / 10))
            // The shell watches and kills, so the kill point does not depend
            // on how soon this test process is scheduled: once the uploader
            // has saved an offset past `killAt`, somewhere in the next chunk.
            let quoted = arguments.map { "'\($0)'" }.joined(separator: " ")
            let script = """
                "$UPLOADER" \(quoted) & pid=$!
                while kill -0 $pid 2>/dev/null; do
                    offset=$(cat '\(stateDirectory.path)'/*.json 2>/dev/null | sed -n 's/.*"offset" : \\([0-9]*\\).*/\\1/p')
                    if [ "${offset:-0}" -ge \(killAt) ]; then kill -9 $pid; break; fi
                    sleep 0.002
                done
                wait $pid
                """
            let firstRun = try await UploaderProcess.runShell(script)
            #expect(firstRun.status == 128 + SIGKILL, "the first run was to die past \(killAt) bytes: status \(firstRun.status), \(firstRun.standardError)")

            let second = try await UploaderProcess.run(arguments)
            #expect(second.status == 0, "\(second.standardError)")
            let record = try #require(try stored(second.outputText))
            #expect(record.sha256 == (try await Self.expectedDigest(kind, stored: record, fixture: fixture, url: url)))
            let stats = try await proxy.stats()
            // At most the chunk a kill interrupts is sent twice (aiohttp-tus
            // keeps none of it; the draft's server keeps what it had read).
            let chunk = kind == .draft ? 16 << 20 : Self.tusChunk
            #expect(stats.clientToServerBytes <= Int64(Self.size + chunk + 64 * 1024), "\(stats.clientToServerBytes) bytes sent for \(Self.size)")
            let leftover = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).filter { $0.hasSuffix(".json") }
            #expect(leftover.isEmpty, "the state is deleted on success")
        }
    }

    @Test("Three cut connections in one run: the command resumes each time and finishes", arguments: UploadProtocol.allCases)
    func threeCutsInOneRun(kind: UploadProtocol) async throws {
        let fixture = try UploadFixture(size: Self.size, name: "video.bin")
        defer { fixture.remove() }
        let stateDirectory = fixture.folder.appending(path: "state")
        try await Self.withServer(kind, cutAfter: 60_000_000, cuts: 3) { url, stored, proxy in
            let result = try await UploaderProcess.run(Self.arguments(kind, url: url, file: fixture.file, stateDirectory: stateDirectory))
            #expect(result.status == 0, "\(result.standardError)")
            let record = try #require(try stored(result.outputText))
            #expect(record.sha256 == (try await Self.expectedDigest(kind, stored: record, fixture: fixture, url: url)))
            let stats = try await proxy.stats()
            #expect(stats.cuts == 3)
            // tus: each cut loses the chunk it interrupted (aiohttp-tus keeps
            // none of a cut PATCH); the draft: nothing but heads.
            let lost = kind == .draft ? 64 * 1024 : 3 * Self.tusChunk + 64 * 1024
            #expect(stats.clientToServerBytes <= Int64(Self.size + lost), "\(stats.clientToServerBytes) bytes sent for \(Self.size)")
        }
    }

    @Test("A file changed since the state was saved exits 2 and sends nothing", arguments: UploadProtocol.allCases)
    func changedFileExitsTwo(kind: UploadProtocol) async throws {
        let fixture = try UploadFixture(size: 24 << 20, name: "video.bin")
        defer { fixture.remove() }
        let stateDirectory = fixture.folder.appending(path: "state")
        try await Self.withServer(kind, cutAfter: 10_000_000, cuts: 1) { url, _, proxy in
            let arguments = Self.arguments(kind, url: url, file: fixture.file, stateDirectory: stateDirectory)
            let first = try await UploaderProcess.run(arguments + ["--retry", "0"])
            #expect(first.status == 3, "\(first.standardError)")
            let connections = try await proxy.stats().connections

            let handle = try FileHandle(forWritingTo: fixture.file)
            try handle.write(contentsOf: Data("edited".utf8))
            try handle.close()
            let second = try await UploaderProcess.run(arguments)
            #expect(second.status == 2)
            #expect(second.standardError.contains("video.bin was modified after the upload began"), "\(second.standardError)")
            #expect(second.standardError.contains(stateDirectory.path), "it says which state file to delete")
            #expect(try await proxy.stats().connections == connections)
        }
    }

    @Test("--resume-from a URL the server does not know exits 4", arguments: UploadProtocol.allCases)
    func unknownResumeURLExitsFour(kind: UploadProtocol) async throws {
        let fixture = try UploadFixture(size: 1024, name: "video.bin")
        defer { fixture.remove() }
        try await Self.withServer(kind) { url, _, _ in
            let unknown = kind == .draft ? url.deletingLastPathComponent().deletingLastPathComponent().appending(path: "resumable_upload/1-2") : url.appending(path: "no-such-upload")
            let result = try await UploaderProcess.run(
                Self.arguments(kind, url: url, file: fixture.file, stateDirectory: fixture.folder.appending(path: "state")) + ["--resume-from", unknown.absoluteString]
            )
            #expect(result.status == 4, "\(result.standardError)")
            #expect(result.standardError.contains("does not know the upload"))
        }
    }

    @Test("--dry-run writes the first request: the draft's empty creation, tus's OPTIONS")
    func dryRunWritesTheFirstRequest() async throws {
        let fixture = try UploadFixture(size: 1024, name: "video.bin")
        defer { fixture.remove() }
        let state = fixture.folder.appending(path: "state").path
        let draft = try await UploaderProcess.run(["--dry-run", "--resumable", "localhost:8080/up", "video@\(fixture.file.path)", "--state-dir", state])
        #expect(draft.status == 0)
        #expect(draft.outputText.hasPrefix("POST /up HTTP/1.1\r\n"))
        #expect(draft.outputText.contains("\r\nUpload-Complete: ?0\r\n"))
        #expect(draft.outputText.hasSuffix("\r\nContent-Length: 0\r\n\r\n"))
        let tus = try await UploaderProcess.run(["--dry-run", "--tus", "localhost:8080/files/", "video@\(fixture.file.path)", "--state-dir", state])
        #expect(tus.status == 0)
        #expect(tus.outputText.hasPrefix("OPTIONS /files/ HTTP/1.1\r\n"))
        #expect(tus.outputText.contains("\r\nTus-Resumable: 1.0.0\r\n"))
    }

    @Test(
        "Resumable options that contradict each other or the body exit 2, naming the option",
        arguments: [
            (["--resumable", "--gzip"], "--gzip does not apply to --resumable uploads: the compressed bytes' length is not known before they are sent"),
            (["--resumable", "--tus"], "--resumable and --tus are two protocols"),
            (["--tus", "--chunk-size", "0"], "--chunk-size 0: give a positive number of bytes"),
            (["--resumable", "--chunk-size", "8X"], "--chunk-size 8X"),
            (["--chunk-size", "8M"], "--chunk-size does not apply to plain requests; it applies to resumable uploads: add --resumable or --tus"),
            (["--state-dir", "/tmp"], "--state-dir does not apply to plain requests; it applies to resumable uploads: add --resumable or --tus"),
            (["--tus", "--resume-from", "ftp://x/y"], "--resume-from ftp://x/y: give the upload's http or https URL"),
        ]
    )
    func contradictoryOptionsExitTwo(options: [String], message: String) async throws {
        let fixture = try UploadFixture(size: 16, name: "video.bin")
        defer { fixture.remove() }
        let result = try await UploaderProcess.run(options + ["127.0.0.1:9/up", "video@\(fixture.file.path)"])
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardOutput.isEmpty)
    }

    @Test(
        "--tus needs exactly one file from disk: anything else exits 2, naming it",
        arguments: [
            (["note=x"], "none was given"),
            (["a@VIDEO", "b@VIDEO"], "is a second"),
            (["a@-"], "cannot resume standard input"),
            (["a@VIDEO", "n:=1"], "raw JSON has no place there"),
        ]
    )
    func tusItemsExitTwo(items: [String], message: String) async throws {
        let fixture = try UploadFixture(size: 16, name: "video.bin")
        defer { fixture.remove() }
        let arguments = ["--tus", "--dry-run", "--state-dir", fixture.folder.path, "127.0.0.1:9/files/"]
            + items.map { $0.replacingOccurrences(of: "VIDEO", with: fixture.file.path) }
        let result = try await UploaderProcess.run(arguments)
        #expect(result.status == 2)
        #expect(result.standardError.contains(message), "\(result.standardError)")
    }

    /// The folder is made, and the upload locked in it, before anything is
    /// sent: a folder that cannot be made is bad input (a save that fails
    /// later is exit 1: `failedSaveLeavesNoTemporaryFile`).
    @Test("A state folder that cannot be created stops the upload before sending, with exit 2")
    func unusableStateFolderExitsTwoBeforeSending() async throws {
        let fixture = try UploadFixture(size: 1 << 20, name: "video.bin")
        defer { fixture.remove() }
        try await Self.withServer(.tus) { url, _, _ in
            let result = try await UploaderProcess.run(["--tus", url.absoluteString, "video@\(fixture.file.path)", "--state-dir", "/dev/null/state"])
            #expect(result.status == 2, "\(result.standardError)")
            #expect(
                result.standardError == "uploader: cannot create the resume state folder /dev/null/state (/dev/null/state: Not a directory); give a folder you can write with --state-dir DIR\n",
                "\(result.standardError)"
            )
        }
    }
}
