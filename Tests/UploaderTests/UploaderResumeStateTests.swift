import Foundation
import HTTPBody
import TestSupport
import Testing

/// The resume state on disk (issue #24): no credentials in it, private
/// modes, an unreadable one refused rather than ignored; and `--tus` with a
/// file whose name is not UTF-8, or a server whose offsets lie.
@Suite struct UploaderResumeStateTests {
    static func reply(_ status: String, _ headers: [String] = []) -> RawResponseServer.Reply {
        .text("HTTP/1.1 \(status)", headers: headers + ["Content-Length: 0"])
    }

    /// A tus server that creates the upload and fails every PATCH, so the
    /// state stays on disk.
    static func failingTusServer() async throws -> RawResponseServer {
        try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            case 1: Self.reply("201 Created", ["Tus-Resumable: 1.0.0", "Location: /files/1"])
            default: Self.reply("500 Internal Server Error")
            }
        }
    }

    @Test("The state file holds no credential from the command line; file 0600, folder 0700")
    func stateHoldsNoSecrets() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let server = try await Self.failingTusServer()
        defer { Task { try? await server.stop() } }
        let stateDirectory = fixture.folder.appending(path: "state")
        let url = "http://alice:url-sekrit@127.0.0.1:\(server.port)/files/"
        let result = try await UploaderProcess.run([
            "--tus", url, "video@\(fixture.file.path)", "--state-dir", stateDirectory.path, "--retry", "0", "--no-progress",
            "-H", "X-Api-Key: header-sekrit", "Authorization:Bearer bearer-sekrit",
            "-H", "x-amz-server-side-encryption-customer-key: ssec-sekrit",
        ])
        #expect(result.status != 0)
        let files = try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path)
        #expect(files.count == 1, "\(files)")
        for name in files {
            let path = stateDirectory.appending(path: name).path
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains("sekrit"), "\(text)")
            let record = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
            let state = try #require(record["state"] as? [String: Any])
            #expect(state["uploadURL"] as? String == "http://127.0.0.1:\(server.port)/files/1", "the state still says where the upload lives")
            let mode = try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
            #expect(mode == 0o600, "\(String(mode, radix: 8))")
        }
        let folderMode = try #require(FileManager.default.attributesOfItem(atPath: stateDirectory.path)[.posixPermissions] as? Int)
        #expect(folderMode == 0o700, "\(String(folderMode, radix: 8))")
    }

    @Test("A state file that exists but cannot be read exits 2 naming it, and sends nothing")
    func unreadableStateExitsTwo() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let server = try await Self.failingTusServer()
        defer { Task { try? await server.stop() } }
        let stateDirectory = fixture.folder.appending(path: "state")
        let arguments = ["--tus", server.url(path: "/files/").absoluteString, "video@\(fixture.file.path)", "--state-dir", stateDirectory.path, "--retry", "0", "--no-progress"]
        _ = try await UploaderProcess.run(arguments)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).first)
        // Unreadable even for root (the tests may run as root): a folder
        // where the file was.
        let state = stateDirectory.appending(path: name)
        try FileManager.default.removeItem(at: state)
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false)
        let requests = server.requestCount

        let second = try await UploaderProcess.run(arguments)
        #expect(second.status == 2, "\(second.standardError)")
        #expect(second.standardError.contains("the resume state \(state.path) cannot be read"), "\(second.standardError)")
        #expect(server.requestCount == requests)
    }

    @Test("A state whose offset is negative or past the body (edited, or another tool's) is refused like an unreadable one", arguments: [-1, 4_097])
    func aStateWhoseOffsetIsOutsideTheBodyExitsTwo(offset: Int) async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let server = try await Self.failingTusServer()
        defer { Task { try? await server.stop() } }
        let stateDirectory = fixture.folder.appending(path: "state")
        let arguments = ["--tus", server.url(path: "/files/").absoluteString, "video@\(fixture.file.path)", "--state-dir", stateDirectory.path, "--retry", "0", "--no-progress"]
        _ = try await UploaderProcess.run(arguments)
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: stateDirectory.path).first { $0.hasSuffix(".json") })
        let state = stateDirectory.appending(path: name)
        var record = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: state)) as? [String: Any])
        var saved = try #require(record["state"] as? [String: Any])
        saved["offset"] = offset
        record["state"] = saved
        try JSONSerialization.data(withJSONObject: record).write(to: state)
        let requests = server.requestCount

        let second = try await UploaderProcess.run(arguments)
        #expect(second.status == 2, "\(second.standardError)")
        #expect(second.standardError == "uploader: the resume state \(state.path) cannot be read; delete it to start the upload afresh\n")
        #expect(server.requestCount == requests)
    }

    @Test("--tus uploads a file whose name is not UTF-8")
    func tusFileNameThatIsNotUTF8() async throws {
        let scratch = try UploadFixture(size: 16, name: "unused.bin")
        defer { scratch.remove() }
        let server = try await TusServer.start()
        defer { server.stop() }
        // The shell writes the name's bytes: Swift strings cannot hold them.
        let result = try await UploaderProcess.runShell(
            "name=$(printf '\\377\\376.txt'); printf hello > \"$name\"; \"$UPLOADER\" --tus \(server.uploadsURL.absoluteString) \"f@$name\" --state-dir state --no-progress",
            currentDirectory: scratch.folder
        )
        #expect(result.status == 0, "\(result.standardError)")
        #expect(result.outputText.contains(server.uploadsURL.absoluteString), "it prints the upload's URL: \(result.outputText)")
    }

    @Test("--tus: a server that answers the first PATCH with the whole length exits 3, not 0")
    func tusServerClaimingTheWholeUploadFails() async throws {
        let fixture = try UploadFixture(size: 3_000_000, name: "video.bin")
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            case 1: Self.reply("201 Created", ["Tus-Resumable: 1.0.0", "Location: /files/1"])
            default: Self.reply("204 No Content", ["Tus-Resumable: 1.0.0", "Upload-Offset: 3000000"])
            }
        }
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run([
            "--tus", server.url(path: "/files/").absoluteString, "video@\(fixture.file.path)", "--chunk-size", "1M",
            "--state-dir", fixture.folder.appending(path: "state").path, "--no-progress",
        ])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError.contains("reports Upload-Offset 3000000, not 1048576"), "\(result.standardError)")
        #expect(server.requestCount == 3)
    }

    /// The SHA-256 of `text` in hex, as `sha256sum` prints it.
    static func sha256(_ text: String) async throws -> String {
        let result = try await UploaderProcess.runShell("printf '%s' '\(text)' | sha256sum")
        return String(result.outputText.prefix(64))
    }

    static func mode(_ url: URL) throws -> Int {
        try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int)
    }

    @Test("Loading a state that an earlier version left 0644 in a 0755 folder makes them 0600 and 0700 at once, before any save")
    func loadingTightensAnOldStateAtOnce() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let server = try await Self.failingTusServer()
        defer { Task { try? await server.stop() } }
        let home = fixture.folder.appending(path: "xdg")
        let arguments = ["--tus", server.url(path: "/files/").absoluteString, "video@\(fixture.file.path)", "--retry", "0", "--no-progress"]
        _ = try await UploaderProcess.run(arguments, environment: ["XDG_STATE_HOME": home.path])
        let folder = home.appending(path: "uploader")
        let state = try #require(try FileManager.default.contentsOfDirectory(atPath: folder.path).first { $0.hasSuffix(".json") })
        let file = folder.appending(path: state)
        chmod(file.path, 0o644)
        chmod(folder.path, 0o755)

        // A dry run loads the state and never saves it.
        let dryRun = try await UploaderProcess.run(arguments + ["--dry-run"], environment: ["XDG_STATE_HOME": home.path])
        #expect(dryRun.status == 0, "\(dryRun.standardError)")
        let (fileMode, folderMode) = (try Self.mode(file), try Self.mode(folder))
        #expect(fileMode == 0o600, "\(String(fileMode, radix: 8))")
        #expect(folderMode == 0o700, "\(String(folderMode, radix: 8))")
    }

    @Test("State files of earlier versions, which held the whole command, are rewritten as the command's digest and removed; their temporary files removed")
    func legacyStateFilesAreRewrittenWithoutTheCommand() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let folder = fixture.folder.appending(path: "state")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let command = "p:http://alice:legacy-sekrit@127.0.0.1:9/files/ H:X-Api-Key: legacy-sekrit"
        let legacy = folder.appending(path: "0123456789abcdef.json")
        try Data(#"{"command": "\#(command)", "state": {"uploadURL": "http://127.0.0.1:9/files/7", "offset": 1024}}"#.utf8).write(to: legacy)
        chmod(legacy.path, 0o644)
        let partial = folder.appending(path: "fedcba9876543210.json.partial")
        try Data(#"{"command": "p:http://bob:legacy-sekrit@"#.utf8).write(to: partial)
        chmod(partial.path, 0o644)

        let result = try await UploaderProcess.run([
            "--tus", "--dry-run", "127.0.0.1:9/files/", "video@\(fixture.file.path)", "--state-dir", folder.path,
        ])
        #expect(result.status == 0, "\(result.standardError)")
        let digest = try await Self.sha256(command)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["\(digest).json"])
        let rewritten = folder.appending(path: "\(digest).json")
        let text = try String(contentsOf: rewritten, encoding: .utf8)
        #expect(!text.contains("sekrit"), "\(text)")
        let record = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(record["commandDigest"] as? String == digest)
        let state = try #require(record["state"] as? [String: Any])
        #expect(state["uploadURL"] as? String == "http://127.0.0.1:9/files/7", "the upload is still where it was: \(text)")
        #expect(try Self.mode(rewritten) == 0o600)
    }

    @Test("A second run resuming the same upload while the first still runs exits 2 naming the first")
    func concurrentResumeIsRefusedNamingTheOtherProcess() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        // The first run's PATCH is never answered: it holds the upload.
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            case 1: Self.reply("201 Created", ["Tus-Resumable: 1.0.0", "Location: /files/1"])
            default: .stalling(Array("HTTP/1.1 204 No Content\r\n".utf8))
            }
        }
        defer { Task { try? await server.stop() } }
        let arguments = "--tus \(server.url(path: "/files/").absoluteString) video@\(fixture.file.path) --state-dir state --no-progress"
        let started = try await UploaderProcess.runShell(
            #""$UPLOADER" \#(arguments) >/dev/null 2>&1 & echo "first=$!""#, currentDirectory: fixture.folder
        )
        let first = try #require(started.outputText.split(separator: "first=").last.flatMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        defer { kill(first, SIGTERM) }
        // The second run starts once the first holds the upload: its PATCH
        // is at the server (the lock alone is taken before it is sent, and
        // on a busy machine the count below could then miss it).
        let deadline = ContinuousClock.now + TestTime.liveness
        while server.requestCount < 3, ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
        try #require(server.requestCount == 3, "the first run's PATCH never reached the server")
        // The second run has a timeout (not part of what makes the command
        // the same) so that, without the lock, it ends instead of hanging too.
        let result = try await UploaderProcess.runShell(
            """
            n=0; while [ "$(cat state/*.lock 2>/dev/null)" != "\(first)" ] && [ $n -lt 6000 ]; do sleep 0.1; n=$((n+1)); done
            "$UPLOADER" \(arguments) --timeout 10; echo "second=$?"
            """,
            currentDirectory: fixture.folder
        )
        #expect(result.outputText.contains("second=2"), "\(result.outputText) \(result.standardError)")
        #expect(result.standardError.hasPrefix("uploader: another uploader (pid \(first)) is resuming this upload ("), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1, "\(result.standardError)")
        #expect(server.requestCount == 3, "the second run sent nothing")
    }

    @Test(
        "A state that cannot be written (file size limit: EFBIG, as on a full disk) stops the upload and leaves no temporary file",
        .disabled(if: ThreadSanitizer.isActive, "ThreadSanitizer's runtime dies (SIGBUS) at start under a file size limit below about 1 MiB")
    )
    func failedSaveLeavesNoTemporaryFile() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let server = try await Self.failingTusServer()
        defer { Task { try? await server.stop() } }
        // SIGXFSZ ignored (inherited through exec), so a write past the limit fails with EFBIG instead of killing the process.
        let result = try await UploaderProcess.runShell(
            "trap '' XFSZ; exec /usr/bin/prlimit --fsize=16 -- \"$UPLOADER\" --tus \(server.url(path: "/files/").absoluteString) video@\(fixture.file.path) --state-dir state --retry 0 --no-progress",
            currentDirectory: fixture.folder
        )
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("uploader: cannot save the resume state to "), "\(result.standardError)")
        #expect(result.standardError.contains("the upload was stopped"), "\(result.standardError)")
        let left = try FileManager.default.contentsOfDirectory(atPath: fixture.folder.appending(path: "state").path)
        #expect(left.filter { $0.contains(".partial") }.isEmpty, "\(left)")
    }

    @Test("A Location carrying tokens in its query is shown with them redacted in the uploader's messages")
    func locationCredentialsAreMaskedInMessages() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let port = LockedValue(0)
        // The first run creates the upload and fails its PATCH; the second
        // asks where the upload stands and hears it is gone.
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            case 1:
                Self.reply("201 Created", [
                    "Tus-Resumable: 1.0.0",
                    "Location: http://127.0.0.1:\(port.withLock { $0 })/files/1?token=tok-sekrit&X-Amz-Signature=sig-sekrit&part=1",
                ])
            case 2: Self.reply("500 Internal Server Error")
            case 3: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            default: Self.reply("404 Not Found", ["Tus-Resumable: 1.0.0"])
            }
        }
        port.withLock { $0 = server.port }
        defer { Task { try? await server.stop() } }
        let arguments = [
            "--tus", server.url(path: "/files/").absoluteString, "video@\(fixture.file.path)",
            "--state-dir", fixture.folder.appending(path: "state").path, "--retry", "0", "--no-progress",
        ]
        _ = try await UploaderProcess.run(arguments)
        let result = try await UploaderProcess.run(arguments)
        #expect(result.status == 4, "\(result.standardError)")
        #expect(!result.standardError.contains("sekrit"), "\(result.standardError)")
        #expect(
            result.standardError.hasPrefix("uploader: The server does not know the upload at http://127.0.0.1:\(server.port)/files/1?token=<redacted>&X-Amz-Signature=<redacted>&part=1 (status 404)"),
            "\(result.standardError)"
        )
    }

    @Test("A Location that is not http(s) is echoed with its password and tokens masked")
    func nonHTTPLocationIsEchoedMasked() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            switch index {
            case 0: Self.reply("200 OK", ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation"])
            default: Self.reply("201 Created", ["Tus-Resumable: 1.0.0", "Location: ftp://bob:loc-sekrit@127.0.0.1/files/1?token=tok-sekrit&X-Amz-Credential=cred-sekrit&part=1"])
            }
        }
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run([
            "--tus", server.url(path: "/files/").absoluteString, "video@\(fixture.file.path)",
            "--state-dir", fixture.folder.appending(path: "state").path, "--retry", "0", "--no-progress",
        ])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(!result.standardError.contains("sekrit"), "\(result.standardError)")
        #expect(
            result.standardError.contains(#"the upload's Location "ftp://bob:***@127.0.0.1/files/1?token=<redacted>&X-Amz-Credential=<redacted>&part=1" is not an http or https URL"#),
            "\(result.standardError)"
        )
    }
}
