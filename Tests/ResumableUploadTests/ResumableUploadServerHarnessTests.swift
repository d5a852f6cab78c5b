import Foundation
import TestSupport
import Testing

/// The IETF resumable-upload server and the fault proxy work as issue #13's
/// tests need: an upload created with an empty body, an append cut by the
/// proxy, the offset the server kept, and the rest appended from there.
@Suite struct ResumableUploadServerHarnessTests {
    /// The header fields that say "this request does (not) end the upload", per interop version.
    static func completeness(_ complete: Bool, version: Int) -> (String, String) {
        version >= 5 ? ("Upload-Complete", complete ? "?1" : "?0") : ("Upload-Incomplete", complete ? "?0" : "?1")
    }

    /// The header fields of an append (`PATCH`) at `offset`.
    static func appendHeaders(offset: Int, complete: Bool, version: Int) -> [(String, String)] {
        var headers = [("Upload-Draft-Interop-Version", String(version)), ("Upload-Offset", String(offset)), completeness(complete, version: version)]
        if version >= 6 { headers.append(("Content-Type", "application/partial-upload")) }
        return headers
    }

    @Test(arguments: [3, 5, 6])
    func appendCutByTheProxyResumesFromTheOffsetTheServerKept(version: Int) async throws {
        let server = try await ResumableUploadServer.start()
        defer { server.stop() }
        let proxy = try await PlainExchange.proxyCuttingOnce(to: server.url())
        defer { proxy.stop() }
        let body = PlainExchange.randomBody()

        // Creation without content, as a client whose HTTP library hides 104 must do.
        let creation = try await PlainExchange.send(
            "POST",
            proxy.url(path: "/files/smoke.bin"),
            headers: [("Upload-Draft-Interop-Version", String(version)), Self.completeness(false, version: version)],
            body: []
        )
        #expect(creation.status == 201)
        #expect(creation.header("Upload-Offset") == "0")
        let location = try #require(creation.header("Location"))
        #expect(location.hasPrefix("/resumable_upload/"), "a relative reference, so resumptions go through the proxy")
        let upload = try #require(URL(string: location, relativeTo: proxy.url()))

        await #expect(throws: (any Error).self, "the proxy cuts this append") {
            _ = try await PlainExchange.send("PATCH", upload, headers: Self.appendHeaders(offset: 0, complete: true, version: version), body: body)
        }

        let probe = try await PlainExchange.send("HEAD", upload, headers: [("Upload-Draft-Interop-Version", String(version))])
        #expect(probe.status == 204)
        let kept = try #require(probe.header("Upload-Offset").flatMap { Int($0) })
        #expect(kept < PlainExchange.cutAfter, "the server kept at most the body bytes the proxy let through")

        let rest = try await PlainExchange.send(
            "PATCH", upload, headers: Self.appendHeaders(offset: kept, complete: true, version: version), body: Array(body[kept...])
        )
        #expect(rest.status == 200)
        let answer = try JSONDecoder().decode(Answer.self, from: Data(rest.body))
        #expect(answer.bytes == body.count)
        #expect(answer.sha256 == PlainExchange.sha256Hex(body))
        let stored = try Data(contentsOf: server.storage.appending(path: "\(answer.upload)/body"))
        #expect(stored == Data(body))

        let stats = try await proxy.stats()
        #expect(stats.cuts == 1)
        #expect(stats.clientToServerBytes >= Int64(body.count - kept + PlainExchange.cutAfter))
    }

    /// The final response's body.
    struct Answer: Decodable {
        let upload: String
        let bytes: Int
        let sha256: String
    }
}
