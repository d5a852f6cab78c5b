import Foundation
import TestSupport
import Testing
import UploaderItems

/// Rows of docs/bad-input.md that no other test covered.
@Suite struct BadInputCatalogueTests {
    @Test(arguments: [
        ("f@x;tpye=a/b", "unknown parameter 'tpye'; use ;type=MIME or ;filename=NAME, or double-quote a value that holds ';'"),
        ("f@x;filename=a;bogus=1", "unknown parameter 'bogus'; use ;type=MIME or ;filename=NAME, or double-quote a value that holds ';'"),
        ("f@x;headers=X-A:1", "curl's ;headers= is not supported; use ;type=MIME or ;filename=NAME"),
        ("f@x;filename=\"a\"b", "expected ';' after the quoted filename= value"),
        ("f@;type=text/plain", "the file path is empty"),
    ])
    func malformedFileItemNamesTheProblem(text: String, reason: String) throws {
        let error = try #require(throws: InputError.self) { try RequestItem(parsing: text) }
        #expect(error.description == "'\(text)': \(reason)")
    }

    @Test(arguments: [
        ("noequals", "-F takes name=value or name=@path"),
        ("a=x;y=z", "unknown parameter 'y'; use ;type=MIME or ;filename=NAME, or double-quote a value that holds ';'"),
        ("a=\"open", "a quoted value has no closing quote"),
    ])
    func malformedFormPartNamesTheProblem(text: String, reason: String) throws {
        let error = try #require(throws: InputError.self) { try RequestItem(parsingFormPart: text) }
        #expect(error.description == "'\(text)': \(reason)")
    }

    /// Bad options exit 2 with one line naming the option, and nothing is sent.
    @Test(arguments: [
        (["-H", "NoColonHere"], "-H 'NoColonHere': expected 'Name: value'"),
        (["-H", ": value"], "the header name is empty"),
        (["--timeout", "0", "a=1"], "--timeout 0: the timeout must be a positive number of seconds"),
        (["--data", "x", "--json"], "--data sends a raw body; drop --json, --form or --multipart"),
        (["--json", "f@/etc/hostname"], "a JSON body cannot carry files; use --multipart"),
        (["X-Bad:a\u{1}b"], "The value of header X-Bad has a line break"),
    ])
    func badOptionExitsTwoNamingIt(arguments: [String], message: String) async throws {
        let server = try await TestHTTPServer.start()
        defer { Task { try? await server.stop() } }
        let result = try await UploaderProcess.run(["localhost:\(server.port)/up"] + arguments)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains(message), "\(result.standardError)")
        #expect(result.standardError.split(separator: "\n").count == 1)
        #expect(server.requests.isEmpty)
    }

    /// An option a presigned POST cannot honour (it sends the form as the
    /// form says) is refused, naming it, not ignored; nothing is read or sent.
    @Test(arguments: ["--gzip", "--boundary", "--recursive"])
    func optionAPresignedPostCannotHonourExitsTwoNamingIt(option: String) async throws {
        let arguments = option == "--boundary" ? [option, "b"] : [option]
        let result = try await UploaderProcess.run(["--presigned-post", "no-such-form.json", "no-such-file.bin"] + arguments)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("\(option) does not apply to --presigned-post"), "\(result.standardError)")
    }

    /// `--tus` sends the one file as it is, so an option that shapes a
    /// multipart body is refused, naming it, not ignored.
    @Test(arguments: [["--multipart"], ["--boundary", "b"]])
    func optionTusCannotHonourExitsTwoNamingIt(option: [String]) async throws {
        let result = try await UploaderProcess.run(["--tus", "127.0.0.1:1/files", "file@/etc/hostname"] + option)
        #expect(result.status == 2, "\(result.standardError)")
        #expect(result.standardError.contains("\(option[0]) does not apply to --tus"), "\(result.standardError)")
    }

    @Test func missingURLExitsTwo() async throws {
        let result = try await UploaderProcess.run([])
        #expect(result.status == 2)
        #expect(result.standardError.contains("URL"), "\(result.standardError)")
    }
}
