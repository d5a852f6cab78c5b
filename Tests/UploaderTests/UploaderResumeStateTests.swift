import Foundation
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
}
