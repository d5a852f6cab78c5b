import Foundation
import TestSupport
import Testing

/// #24.15: what a server or the machine does wrong, told in words: no
/// library type names, no API advice, controls shown as `\x1b`, overlong
/// values cut at 200 characters.
@Suite struct UploaderServerMessageTests {
    @Test func connectionClosedWithoutAnAnswerIsSaidInWords() async throws {
        let server = try await RawResponseServer.start { _ in .bytes([]) }
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "a=1", "--no-progress"])
        #expect(result.status == 3, "\(result.standardError)")
        #expect(result.standardError == "uploader: POST http://127.0.0.1:\(server.port)/up: the server closed the connection without answering\n")
    }

    /// ESC and BEL became spaces (HTTPTypes' rule for a phrase), and the
    /// 5,000-character phrase was printed whole.
    @Test func reasonPhraseControlsAreShownAndALongPhraseIsCut() async throws {
        let phrase = String(repeating: "x", count: 5_000)
        let server = try await RawResponseServer.start { index in
            index == 0
                ? .bytes(Array("HTTP/1.1 500 Bad\u{1b}[31m\u{07}thing\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8))
                : .text("HTTP/1.1 500 \(phrase)", headers: ["Content-Length: 0"])
        }
        defer { Task { try? await server.stop() } }
        let controls = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "a=1", "--no-progress"])
        #expect(controls.status == 5)
        #expect(controls.standardError == #"uploader: the server answered 500 Bad\x1b[31m\x07thing"# + "\n")
        let long = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "a=1", "--no-progress"])
        #expect(long.status == 5)
        #expect(long.standardError == "uploader: the server answered 500 \(String(repeating: "x", count: 200))…\n")
    }

    @Test func aLongPathInALibraryMessageIsCut() async throws {
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let path = "/" + String(repeating: "p", count: 6_000)
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/up", "f@\(path)", "--no-progress"])
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.count < 1_000, "\(result.standardError.count) characters")
        #expect(result.standardError.contains("Cannot read /\(String(repeating: "p", count: 199))…"), "\(result.standardError.prefix(600))")
        #expect(server.requests.isEmpty)
    }

    /// FileManager's CocoaError ("rawValue: 513") named nothing a user can do.
    @Test func unwritableStateFolderSaysWhatToType() async throws {
        let fixture = try UploadFixture(size: 16, name: "f.bin")
        defer { fixture.remove() }
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        // /proc refuses new folders even to root.
        let result = try await UploaderProcess.run(
            ["--tus", "127.0.0.1:\(server.port)/files/", "f@\(fixture.file.path)", "--no-progress"],
            environment: ["HOME": "/proc/uploader-home", "XDG_STATE_HOME": ""]
        )
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.hasPrefix("uploader: cannot create the resume state folder /proc/uploader-home/.local/state/uploader (/proc/uploader-home: "), "\(result.standardError)")
        #expect(result.standardError.hasSuffix("); give a folder you can write with --state-dir DIR\n"), "\(result.standardError)")
        #expect(!result.standardError.contains("Cocoa"))
        #expect(server.requests.isEmpty)
    }

    /// A server's Location with a user name and password: the library's
    /// refusal advised `.authorization(username:password:)`, an API call.
    @Test func locationWithCredentialsIsRefusedInTheCommandsWords() async throws {
        let fixture = try UploadFixture(size: 4_096, name: "video.bin")
        defer { fixture.remove() }
        let server = try await RawResponseServer.start { index in
            index == 0
                ? .text("HTTP/1.1 200 OK", headers: ["Tus-Resumable: 1.0.0", "Tus-Version: 1.0.0", "Tus-Extension: creation", "Content-Length: 0"])
                : .text("HTTP/1.1 201 Created", headers: ["Tus-Resumable: 1.0.0", "Location: http://bob:loc-sekrit@127.0.0.1:9/files/1", "Content-Length: 0"])
        }
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run([
            "--tus", server.url(path: "/files/").absoluteString, "video@\(fixture.file.path)",
            "--state-dir", fixture.folder.appending(path: "state").path, "--retry", "0", "--no-progress",
        ])
        #expect(result.status != 0)
        #expect(result.standardError.contains("the server gave an upload URL with a user name or password in it"), "\(result.standardError)")
        #expect(!result.standardError.contains(".authorization("), "\(result.standardError)")
        #expect(!result.standardError.contains("sekrit"), "\(result.standardError)")
    }
}
