import AWSSigning
import Crypto
import Foundation
import HTTPTypes
import Testing

/// AWS's published SigV4 test suite (`__Fixtures__/aws-sig-v4-test-suite`,
/// see the README there): for every request, the canonical request, the
/// string to sign and the `Authorization` value must be exactly the suite's.
@Suite struct SigV4TestSuiteTests {
    static let folder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "__Fixtures__/aws-sig-v4-test-suite")

    /// Every folder holding a `.req`, by its path under the suite.
    static let vectors: [String] = {
        let enumerator = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)
        var names: [String] = []
        while let url = enumerator?.nextObject() as? URL {
            guard url.pathExtension == "req" else { continue }
            names.append(String(url.deletingLastPathComponent().path.dropFirst(folder.path.count + 1)))
        }
        return names.sorted()
    }()

    static let credentials = AWSCredentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY")
    static let date = Date(timeIntervalSince1970: 1_440_938_160)  // 2015-08-30T12:36:00Z
    /// The token `get-vanilla-with-session-token` signs; its `.req` does not show it.
    static let vanillaSessionToken = "6e86291e8372ff2a2260956d9b8aae1d763fbf315fa00fa31553b73ebf194267"

    @Test func theWholeSuiteIsHere() {
        #expect(Self.vectors.count == 34, "\(Self.vectors)")
    }

    @Test(arguments: vectors) func vector(_ name: String) throws {
        let base = Self.folder.appending(path: name).appending(path: URL(filePath: name).lastPathComponent)
        func read(_ ext: String) throws -> String {
            try String(contentsOf: base.appendingPathExtension(ext), encoding: .utf8).replacingOccurrences(of: "\r", with: "")
        }
        let request = try SuiteRequest(try read("req"))
        var credentials = Self.credentials
        credentials.sessionToken = request.fields.first { $0.name.lowercased() == "x-amz-security-token" }?.value
        if name == "get-vanilla-with-session-token" { credentials.sessionToken = Self.vanillaSessionToken }
        let signer = SigV4Signer(credentials: credentials, region: "us-east-1", service: "service")

        let steps = try signer.signingSteps(for: try request.head(), payloadHash: PayloadDigest.sha256(of: Array(request.body.utf8)).hex, date: Self.date)
        #expect(steps.canonicalRequest == (try read("creq")))
        #expect(steps.stringToSign == (try read("sts")))
        #expect(steps.authorization == (try read("authz")))
    }

    /// A `.req` file: a request line, fields (a line that starts with a space
    /// continues the one before), an empty line, the body.
    struct SuiteRequest {
        let method: String
        let target: String
        let fields: [(name: String, value: String)]
        let body: String

        init(_ text: String) throws {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            let requestLine = try #require(lines.first)
            let firstSpace = try #require(requestLine.firstIndex(of: " "))
            let lastSpace = try #require(requestLine.lastIndex(of: " "))
            method = String(requestLine[..<firstSpace])
            target = String(requestLine[requestLine.index(after: firstSpace)..<lastSpace])
            var fields: [(name: String, value: String)] = []
            var index = 1
            while index < lines.count, !lines[index].isEmpty {
                let line = lines[index]
                if line.first == " " || line.first == "\t", let last = fields.popLast() {
                    fields.append((last.name, last.value + " " + line.trimmingCharacters(in: .whitespaces)))
                } else {
                    let colon = try #require(line.firstIndex(of: ":"))
                    fields.append((String(line[..<colon]), String(line[line.index(after: colon)...])))
                }
                index += 1
            }
            self.fields = fields
            body = index + 1 < lines.count ? lines[(index + 1)...].joined(separator: "\n") : ""
        }

        /// The head: the `Host` field as its authority, the other fields in order.
        func head() throws -> HTTPRequest {
            let host = try #require(fields.first { $0.name.lowercased() == "host" }?.value)
            var head = HTTPRequest(method: try #require(HTTPRequest.Method(method)), scheme: "https", authority: host, path: target)
            for field in fields where field.name.lowercased() != "host" {
                head.headerFields.append(HTTPField(name: try #require(HTTPField.Name(field.name)), value: field.value))
            }
            return head
        }
    }
}
