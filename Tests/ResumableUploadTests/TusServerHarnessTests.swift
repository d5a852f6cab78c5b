import Foundation
import TestSupport
import Testing

/// The tus server (aiohttp-tus) and the fault proxy work as issue #13's tests
/// need: a creation, a PATCH cut by the proxy, the offset the server kept
/// (none of a cut PATCH: aiohttp-tus writes a PATCH only once all of it has
/// arrived), and the upload finished from there.
@Suite struct TusServerHarnessTests {
    static let tus = ("Tus-Resumable", "1.0.0")

    @Test func patchCutByTheProxyKeepsNothingAndResumesFromTheOffset() async throws {
        let server = try await TusServer.start()
        defer { server.stop() }
        let proxy = try await PlainExchange.proxyCuttingOnce(to: server.url())
        defer { proxy.stop() }
        let body = PlainExchange.randomBody()
        // aiohttp-tus refuses a creation without `filename` (404) and one whose
        // name's stem matches a stored file (409).
        let metadata = "filename \(Data("smoke.bin".utf8).base64EncodedString())"

        let creation = try await PlainExchange.send(
            "POST", proxy.url(path: "/uploads"), headers: [Self.tus, ("Upload-Length", String(body.count)), ("Upload-Metadata", metadata)]
        )
        #expect(creation.status == 201)
        let location = try #require(creation.header("Location"))
        let upload = try #require(URL(string: location))
        #expect(upload.port == proxy.port, "aiohttp-tus builds Location from Host, so it names the proxy")

        let patchHeaders = [Self.tus, ("Content-Type", "application/offset+octet-stream")]
        await #expect(throws: (any Error).self, "the proxy cuts this PATCH") {
            _ = try await PlainExchange.send("PATCH", upload, headers: patchHeaders + [("Upload-Offset", "0")], body: body)
        }

        let probe = try await PlainExchange.send("HEAD", upload, headers: [Self.tus])
        #expect(probe.status == 200)
        #expect(probe.header("Upload-Offset") == "0")
        #expect(probe.header("Upload-Length") == String(body.count))

        let rest = try await PlainExchange.send("PATCH", upload, headers: patchHeaders + [("Upload-Offset", "0")], body: body)
        #expect(rest.status == 204)
        #expect(rest.header("Upload-Offset") == String(body.count))
        let completed = try #require(try server.completedUpload(named: "smoke.bin"))
        #expect(completed.bytes == Int64(body.count))
        #expect(completed.sha256 == PlainExchange.sha256Hex(body))

        let stats = try await proxy.stats()
        #expect(stats.cuts == 1)
        #expect(stats.clientToServerBytes >= Int64(PlainExchange.cutAfter + body.count))
    }
}
