import Foundation
import Testing

/// The contract's "Peer syntax (version 4)" rules, through the built
/// executable's dry run: what a user who types HTTPie's or curl's syntax gets.
@Suite struct PeerSyntaxTests {
    static func dryRun(_ arguments: [String]) async throws -> String {
        let result = try await UploaderProcess.run(["--dry-run", "--boundary", "B"] + arguments)
        #expect(result.status == 0, "\(arguments): \(result.standardError)")
        return result.outputText
    }

    @Test(arguments: [
        ("localhost:8080/ünï/a%20b", "GET /%C3%BCn%C3%AF/a%20b HTTP/1.1"),
        ("localhost:8080/a%2Fb?q=%C3%A9&r=é", "GET /a%2Fb?q=%C3%A9&r=%C3%A9 HTTP/1.1"),
        ("localhost:8080/100%", "GET /100%25 HTTP/1.1"),
        ("localhost:8080/\"quoted\"", "GET /%22quoted%22 HTTP/1.1"),
    ])
    func urlKeepsItsEscapesAndEncodesTheRest(url: String, requestLine: String) async throws {
        let output = try await Self.dryRun([url])
        #expect(output.hasPrefix(requestLine + "\r\n"), "\(output.prefix(80))")
    }

    @Test func jsonKeysAreComparedAsWrittenNotByCanonicalEquivalence() async throws {
        let composed = "\u{E9}"  // é as one scalar (NFC)
        let decomposed = "e\u{301}"  // é as e and a combining accent (NFD)
        #expect(composed == decomposed, "Swift's String equality merges them")
        let output = try await Self.dryRun(["localhost:8080/", "\(composed)=1", "\(decomposed)=2", "\(composed)=3"])
        #expect(output.hasSuffix("{\"\(composed)\":\"3\",\"\(decomposed)\":\"2\"}"), "\(output)")
    }

    @Test func anEmptyNameIsSentEmpty() async throws {
        let json = try await Self.dryRun(["localhost:8080/", "=v"])
        #expect(json.hasSuffix(#"{"":"v"}"#))
        let multipart = try await Self.dryRun(["localhost:8080/", "-F", "=v"])
        #expect(multipart.contains("Content-Disposition: form-data; name=\"\"\r\n\r\nv\r\n"), "\(multipart)")
        let form = try await Self.dryRun(["--form", "localhost:8080/", "=v"])
        #expect(form.hasSuffix("\r\n\r\n=v"))
    }

    @Test func typeOnATextPartIsItsContentType() async throws {
        let output = try await Self.dryRun(["localhost:8080/", "-F", "a=b;type=text/x-foo", "-F", #"c="x;y""#])
        #expect(output.contains("name=\"a\"\r\nContent-Type: text/x-foo\r\n\r\nb\r\n"), "\(output)")
        #expect(output.contains("name=\"c\"\r\n\r\nx;y\r\n"), "\(output)")
    }
}
