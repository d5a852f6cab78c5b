import AWSSigning
import Foundation
import HTTPTypes
import Testing

/// The signer's inputs and refusals: credentials from the environment, the
/// date format, the host it signs, and the errors that name what is wrong.
@Suite struct SigV4SignerTests {
    static let signer = SigV4Signer(credentials: AWSCredentials(accessKeyID: "AKIDTEST", secretAccessKey: "secret", sessionToken: "token"), region: "eu-west-1")

    @Test func credentialsComeFromTheStandardVariables() throws {
        let full = try AWSCredentials.environment(["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": "tok"])
        #expect(full == AWSCredentials(accessKeyID: "AKID", secretAccessKey: "s3cr3t", sessionToken: "tok"))
        let longTerm = try AWSCredentials.environment(["AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "s3cr3t", "AWS_SESSION_TOKEN": ""])
        #expect(longTerm.sessionToken == nil)
        #expect(!"\(full)".contains("s3cr3t") && !"\(full)".contains("tok\""), "description shows the key ID only")
    }

    @Test(arguments: [
        (["AWS_SECRET_ACCESS_KEY": "s"], "The environment variable AWS_ACCESS_KEY_ID is not set"),
        (["AWS_ACCESS_KEY_ID": "", "AWS_SECRET_ACCESS_KEY": "s"], "The environment variable AWS_ACCESS_KEY_ID is empty"),
        (["AWS_ACCESS_KEY_ID": "a"], "The environment variable AWS_SECRET_ACCESS_KEY is not set"),
    ])
    func missingCredentialsNameTheVariable(variables: [String: String], start: String) {
        let error = #expect(throws: AWSSigningError.self) { try AWSCredentials.environment(variables) }
        #expect(error?.code == .missingCredentials)
        #expect(error?.description.hasPrefix(start) == true, "\(error?.description ?? "")")
    }

    @Test(arguments: [
        (0.0, "19700101T000000Z"),
        (951_782_400, "20000229T000000Z"),
        (1_440_938_160.999, "20150830T123600Z"),
        (4_102_444_799, "20991231T235959Z"),
        (-1, "19691231T235959Z"),
    ])
    func datesAreWrittenInBasicFormatInUTC(seconds: Double, expected: String) {
        #expect(SigV4Signer.amzDate(Date(timeIntervalSince1970: seconds)) == expected)
    }

    @Test func theHostIsTheHostFieldOrTheAuthorityWithoutItsDefaultPort() throws {
        let date = Date(timeIntervalSince1970: 0)
        func host(_ scheme: String, _ authority: String, field: String? = nil) throws -> String {
            var head = HTTPRequest(method: .get, scheme: scheme, authority: authority, path: "/")
            if let field { head.headerFields[HTTPField.Name("Host")!] = field }
            let lines = try Self.signer.signingSteps(for: head, payloadHash: SigV4Signer.unsignedPayload, date: date).canonicalRequest.split(separator: "\n")
            return String(try #require(lines.first { $0.hasPrefix("host:") }).dropFirst(5))
        }
        #expect(try host("https", "example.com:443") == "example.com")
        #expect(try host("http", "example.com:80") == "example.com")
        #expect(try host("http", "example.com:443") == "example.com:443")
        #expect(try host("https", "[::1]:9000") == "[::1]:9000")
        #expect(try host("https", "example.com", field: "other.example:8443") == "other.example:8443")
    }

    @Test func aSessionTokenIsSentAndSigned() throws {
        var head = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/")
        try Self.signer.sign(&head, payloadHash: SigV4Signer.emptyPayloadHash, date: Date(timeIntervalSince1970: 0))
        #expect(head.headerFields[.xAmzSecurityToken] == "token")
        #expect(head.headerFields[.authorization]?.contains("SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,") == true)
    }

    @Test func aHeadWithoutAuthorityCannotBeSigned() {
        var head = HTTPRequest(method: .get, scheme: "https", authority: nil, path: "/")
        let error = #expect(throws: AWSSigningError.self) { try Self.signer.sign(&head, payloadHash: "", date: Date()) }
        #expect(error?.code == .invalidRequest)
        #expect(error?.description == "The request cannot be signed: it has no authority (host) to sign")
        let presigning = #expect(throws: AWSSigningError.self) { try Self.signer.presignedURL(for: head, expiresIn: .seconds(60), date: Date()) }
        #expect(presigning?.code == .invalidRequest)
        #expect(presigning?.description == "The request cannot be signed: a presigned URL needs the request's authority (its host), and it has none")
    }

    @Test(arguments: [Duration.zero, .seconds(604_801), .milliseconds(1500), .seconds(-5)])
    func aPresignedURLLivesOneSecondToSevenDays(expiry: Duration) {
        let head = HTTPRequest(method: .get, scheme: "https", authority: "example.com", path: "/k")
        let error = #expect(throws: AWSSigningError.self) { try Self.signer.presignedURL(for: head, expiresIn: expiry, date: Date()) }
        #expect(error?.code == .invalidExpiry)
        #expect(error?.description.contains("from 1 second to 7 days") == true)
    }

    @Test func presignedURLsSignTheTokenAndTheHeadsFieldsButNotItsLength() throws {
        var head = HTTPRequest(method: .put, scheme: "https", authority: "example.com", path: "/k?x-id=PutObject")
        head.headerFields = [.contentType: "image/png", .contentLength: "10"]
        let url = try Self.signer.presignedURL(for: head, expiresIn: .seconds(7 * 24 * 3600), date: Date(timeIntervalSince1970: 0))
        let query = try #require(url.query)
        #expect(query.hasPrefix("x-id=PutObject&X-Amz-Algorithm=AWS4-HMAC-SHA256&"))
        #expect(query.contains("&X-Amz-Expires=604800&X-Amz-SignedHeaders=content-type%3Bhost&X-Amz-Security-Token=token&X-Amz-Signature="))
    }
}
