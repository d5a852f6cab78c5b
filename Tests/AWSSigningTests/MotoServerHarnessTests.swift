import Foundation
import TestSupport
import Testing

/// The S3 test server refuses what S3 refuses, so a wrong signature fails a
/// test: requests signed by botocore (the oracle) with the server's
/// credentials pass, and the same requests signed with a wrong secret, an
/// unknown key, or carrying another body than the one signed, are refused.
@Suite struct MotoServerHarnessTests {
    let bucket = "harness-bucket"

    func order(
        _ server: MotoServer, _ method: String, _ path: String, body: [UInt8]? = nil,
        secret: String? = nil, accessKeyID: String? = nil, signer: BotocoreSigner.Signer = .s3
    ) -> BotocoreSigner.Order {
        BotocoreSigner.Order(
            signer: signer, method: method, url: server.url(path: path).absoluteString,
            headers: [("Host", "127.0.0.1:\(server.port)")], body: body,
            accessKeyID: accessKeyID ?? server.credentials.accessKeyID,
            secretAccessKey: secret ?? server.credentials.secretAccessKey,
            region: server.region, date: BotocoreSigner.amzDate(Date())
        )
    }

    func send(_ answer: BotocoreSigner.Answer, _ method: String, body: [UInt8]? = nil) async throws -> S3Exchange.Reply {
        try await S3Exchange.send(method, answer.url, headers: answer.headers, body: body)
    }

    @Test func signaturesAreCheckedOnHeadersAndPresignedURLs() async throws {
        let server = try await MotoServer.start()
        defer { server.stop() }
        let oracle = try await BotocoreSigner()
        let body = Array("hello, moto".utf8)

        let created = try await send(try await oracle.sign(order(server, "PUT", "/\(bucket)")), "PUT")
        #expect(created.status == 200, "\(created.text)")
        let put = try await send(try await oracle.sign(order(server, "PUT", "/\(bucket)/a%20key.txt", body: body)), "PUT", body: body)
        #expect(put.status == 200, "\(put.text)")
        let got = try await send(try await oracle.sign(order(server, "GET", "/\(bucket)/a%20key.txt")), "GET")
        #expect(got.status == 200)
        #expect(got.body == body)

        let wrongSecret = try await oracle.sign(order(server, "PUT", "/\(bucket)/other.txt", body: body, secret: "wrong"))
        let refused = try await send(wrongSecret, "PUT", body: body)
        #expect(refused.status == 403)
        #expect(refused.text.contains("<Code>SignatureDoesNotMatch</Code>"), "\(refused.text)")

        let unknownKey = try await oracle.sign(order(server, "GET", "/\(bucket)/a%20key.txt", accessKeyID: "AKIAUNKNOWNKEY000000"))
        let unknown = try await send(unknownKey, "GET")
        #expect(unknown.status == 403)
        #expect(unknown.text.contains("<Code>InvalidAccessKeyId</Code>"), "\(unknown.text)")

        let otherBody = try await send(try await oracle.sign(order(server, "PUT", "/\(bucket)/swapped.txt", body: body)), "PUT", body: Array("swapped".utf8))
        #expect(otherBody.status == 400)
        #expect(otherBody.text.contains("<Code>XAmzContentSHA256Mismatch</Code>"), "\(otherBody.text)")

        let presigned = try await oracle.sign(order(server, "GET", "/\(bucket)/a%20key.txt", signer: .s3Query))
        let fetched = try await S3Exchange.send("GET", presigned.url, headers: [])
        #expect(fetched.status == 200)
        #expect(fetched.body == body)
        let badPresigned = try await oracle.sign(order(server, "GET", "/\(bucket)/a%20key.txt", secret: "wrong", signer: .s3Query))
        let badFetch = try await S3Exchange.send("GET", badPresigned.url, headers: [])
        #expect(badFetch.status == 403)
        #expect(badFetch.text.contains("<Code>SignatureDoesNotMatch</Code>"), "\(badFetch.text)")

        let anonymous = try await S3Exchange.send("GET", server.url(path: "/\(bucket)/a%20key.txt").absoluteString, headers: [])
        #expect(anonymous.status == 403, "a request with no signature is refused")
        await oracle.stop()
    }

    @Test func temporaryCredentialsNeedTheirSessionToken() async throws {
        let server = try await MotoServer.start()
        defer { server.stop() }
        let oracle = try await BotocoreSigner()
        let session = server.sessionCredentials
        var withToken = order(server, "PUT", "/\(bucket)")
        withToken.accessKeyID = session.accessKeyID
        withToken.secretAccessKey = session.secretAccessKey
        withToken.sessionToken = session.sessionToken
        let created = try await send(try await oracle.sign(withToken), "PUT")
        #expect(created.status == 200, "\(created.text)")

        var withoutToken = withToken
        withoutToken.sessionToken = nil
        let refused = try await send(try await oracle.sign(withoutToken), "PUT")
        #expect(refused.status == 403, "\(refused.text)")
        await oracle.stop()
    }
}
