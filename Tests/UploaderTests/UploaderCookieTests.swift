import Foundation
import TestSupport
import Testing

/// `-b/--cookie`, `-c/--cookie-jar`, `--session` and `--session-read-only`
/// through the built binary against real servers on 127.0.0.1, with curl
/// as the independent reader of the jars it writes (contract, "The user's
/// environment and habits (version 7)": sessions and cookies).
@Suite struct UploaderCookieTests {
    let folder: TemporaryFolder

    init() throws { folder = try TemporaryFolder("uploader-cookies") }

    /// `/login` sets `sid` (and two cookies a client must refuse: one for
    /// another domain, one `Secure` over http), `/logout` deletes it, the
    /// redirect paths answer 302 with a cookie of their own, and every
    /// other path answers 200 with the `Cookie` it got.
    static func server(redirectingTo other: Int? = nil) async throws -> TestHTTPServer {
        try await TestHTTPServer.start(script: TestHTTPServer.Script { request, _ in
            switch request.uri {
            case "/login":
                .status(200, headers: [("Set-Cookie", "sid=31d4; Path=/; HttpOnly"), ("Set-Cookie", "wide=1; Domain=example.com"), ("Set-Cookie", "sec=1; Secure")], body: "in")
            case "/logout":
                .status(200, headers: [("Set-Cookie", "sid=; Max-Age=0; Path=/")], body: "out")
            case "/away":
                .status(302, headers: [("Location", "http://localhost:\(other ?? 1)/land"), ("Set-Cookie", "hop=1; Path=/")])
            case "/here":
                .status(302, headers: [("Location", "/land"), ("Set-Cookie", "hop=1; Path=/")])
            default:
                .status(200, body: "cookie=\(request.header("Cookie") ?? "none")")
            }
        })
    }

    static func mode(of path: URL) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path.path)
        return try #require(attributes[.posixPermissions] as? Int)
    }

    static func curl(_ arguments: [String]) async throws -> String {
        let result = try await UploaderProcess.runShell("curl -s " + arguments.map { "'\($0)'" }.joined(separator: " "))
        return result.outputText
    }

    @Test func aCookieSetByOneRunIsSentByTheNextThroughAJarThatCurlReads() async throws {
        let server = try await Self.server()
        let jar = folder.appending(path: "jar.txt")
        let login = try await UploaderProcess.run(["127.0.0.1:\(server.port)/login", "-c", jar.path])
        #expect(login.status == 0, "\(login.standardError)")
        #expect(login.outputText == "in")
        let written = try String(contentsOf: jar, encoding: .utf8)
        #expect(written.hasPrefix("# Netscape HTTP Cookie File\n"))
        #expect(written.hasSuffix("\n#HttpOnly_127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\t31d4\n"), "\(written)")
        #expect(try Self.mode(of: jar) == 0o600)

        let next = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "-b", jar.path])
        #expect(next.outputText == "cookie=sid=31d4", "\(next.standardError)")
        // curl, reading the same jar, sends the same Cookie field.
        #expect(try await Self.curl(["-b", jar.path, "http://127.0.0.1:\(server.port)/page"]) == "cookie=sid=31d4")
        try await server.stop()
    }

    @Test func anExpiredCookieIsRemovedFromTheJarAndNotSent() async throws {
        let server = try await Self.server()
        let jar = folder.appending(path: "jar.txt")
        try "127.0.0.1\tFALSE\t/\tFALSE\t0\tsid\t31d4\n127.0.0.1\tFALSE\t/\tFALSE\t0\tkeep\t1\n127.0.0.1\tFALSE\t/\tFALSE\t1000\told\tx\n".write(to: jar, atomically: true, encoding: .utf8)
        let logout = try await UploaderProcess.run(["127.0.0.1:\(server.port)/logout", "-b", jar.path, "-c", jar.path])
        #expect(logout.status == 0, "\(logout.standardError)")
        let written = try String(contentsOf: jar, encoding: .utf8)
        #expect(!written.contains("\tsid\t") && !written.contains("\told\t") && written.contains("\tkeep\t1\n"), "\(written)")
        let next = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "-b", jar.path])
        #expect(next.outputText == "cookie=keep=1")
        try await server.stop()
    }

    /// A cookie for another domain, a Secure one over http and an expired
    /// one are not sent; curl, reading the same jar, agrees (but for the
    /// Secure one: curl sends those to 127.0.0.1 and localhost over http,
    /// taking them for secure origins, which the uploader does not).
    @Test func onlyTheCookiesForTheHostPathAndSchemeAreSent() async throws {
        let server = try await Self.server()
        let jar = folder.appending(path: "jar.txt")
        try [
            "127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\t1",
            ".example.com\tTRUE\t/\tFALSE\t0\ttheirs\t2",
            "127.0.0.1\tFALSE\t/\tTRUE\t0\tsecure\t3",
            "127.0.0.1\tFALSE\t/\tFALSE\t1000\texpired\t4",
            "127.0.0.1\tFALSE\t/other\tFALSE\t0\telsewhere\t5",
        ].joined(separator: "\n").write(to: jar, atomically: true, encoding: .utf8)
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "-b", jar.path])
        #expect(result.outputText == "cookie=mine=1", "\(result.standardError)")
        let withoutSecure = folder.appending(path: "curl-jar.txt")
        try String(contentsOf: jar, encoding: .utf8).split(separator: "\n").filter { !$0.contains("\tsecure\t") }
            .joined(separator: "\n").write(to: withoutSecure, atomically: true, encoding: .utf8)
        #expect(try await Self.curl(["-b", withoutSecure.path, "http://127.0.0.1:\(server.port)/page"]) == "cookie=mine=1")
        // Refused when set: Domain=example.com from 127.0.0.1, Secure over http.
        let written = folder.appending(path: "written.txt")
        _ = try await UploaderProcess.run(["127.0.0.1:\(server.port)/login", "-c", written.path])
        let text = try String(contentsOf: written, encoding: .utf8)
        #expect(!text.contains("wide") && !text.contains("sec\t"), "\(text)")
        try await server.stop()
    }

    /// `-b` text with `=` is sent as it is, in one Cookie field with the jar's cookies.
    @Test func cookieTextIsSentAsGiven() async throws {
        let server = try await Self.server()
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "-b", "a=1; b=2"])
        #expect(result.outputText == "cookie=a=1; b=2", "\(result.standardError)")
        try await server.stop()
    }

    @Test func aRedirectToAnotherHostCarriesNoCookieAndASameHostOneTheRedirectsToo() async throws {
        let other = try await Self.server()
        let server = try await Self.server(redirectingTo: other.port)
        let jar = folder.appending(path: "jar.txt")
        try "127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\t1\n".write(to: jar, atomically: true, encoding: .utf8)
        let away = try await UploaderProcess.run(["-L", "127.0.0.1:\(server.port)/away", "-b", jar.path])
        #expect(away.outputText == "cookie=none", "\(away.standardError)")
        let typed = try await UploaderProcess.run(["-L", "127.0.0.1:\(server.port)/away", "-b", "typed=1"])
        #expect(typed.outputText == "cookie=none", "\(typed.standardError)")
        let here = try await UploaderProcess.run(["-L", "127.0.0.1:\(server.port)/here", "-b", jar.path])
        #expect(here.outputText == "cookie=mine=1; hop=1", "\(here.standardError)")
        #expect(server.requests.map { $0.header("Cookie") } == ["mine=1", "typed=1", "mine=1"] + ["mine=1; hop=1"])
        #expect(other.requests.map { $0.header("Cookie") } == [nil, nil])
        try await server.stop()
        try await other.stop()
    }

    @Test func verboseHidesCookieValues() async throws {
        let server = try await Self.server()
        let result = try await UploaderProcess.run(["-v", "127.0.0.1:\(server.port)/login", "-b", "sid=top-secret"])
        #expect(result.status == 0)
        #expect(result.standardError.contains("Cookie: <redacted>\r\n") && result.standardError.contains("Set-Cookie: <redacted>\r\n"), "\(result.standardError)")
        #expect(!result.standardError.contains("top-secret") && !result.standardError.contains("31d4"))
        try await server.stop()
    }

    @Test func aSessionKeepsCookiesHeadersAndCredentialsInAPrivateFile() async throws {
        let server = try await Self.server()
        let environment = ["XDG_CONFIG_HOME": folder.url.path]
        let first = try await UploaderProcess.run(
            ["127.0.0.1:\(server.port)/login", "--session", "work", "-a", "ada:pw", "X-Team:blue", "If-Match:\"x\"", "Content-Language:en"],
            environment: environment
        )
        #expect(first.status == 0, "\(first.standardError)")
        let file = folder.appending(path: "uploader/sessions/127.0.0.1_\(server.port)/work.json")
        #expect(try Self.mode(of: file) == 0o600)
        #expect(try Self.mode(of: file.deletingLastPathComponent()) & 0o077 == 0)
        let saved = try String(contentsOf: file, encoding: .utf8)
        #expect(saved.contains("\"uploader session file\"") && saved.contains("\"X-Team\"") && saved.contains("\"sid\""))
        #expect(!saved.contains("If-Match") && !saved.contains("Content-Language") && !saved.contains("wide"))

        let second = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "--session", "work"], environment: environment)
        #expect(second.outputText == "cookie=sid=31d4", "\(second.standardError)")
        let sent = try #require(server.requests.last)
        #expect(sent.header("X-Team") == "blue" && sent.header("If-Match") == nil)
        #expect(sent.header("Authorization") == "Basic " + Data("ada:pw".utf8).base64EncodedString())
        // A credential given now wins over the session's, and is kept.
        _ = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "--session", "work", "--bearer", "T0K"], environment: environment)
        #expect(server.requests.last?.header("Authorization") == "Bearer T0K")
        _ = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "--session", "work"], environment: environment)
        #expect(server.requests.last?.header("Authorization") == "Bearer T0K")
        try await server.stop()
    }

    @Test func aReadOnlySessionIsUsedAndNeverChanged() async throws {
        let server = try await Self.server()
        let file = folder.appending(path: "sessions/mine.json")
        let created = try await UploaderProcess.run(["127.0.0.1:\(server.port)/login", "--session", file.path, "X-Team:blue"])
        #expect(created.status == 0, "\(created.standardError)")
        let before = try Data(contentsOf: file)
        let used = try await UploaderProcess.run(["127.0.0.1:\(server.port)/logout", "--session-read-only", file.path, "X-Other:1"])
        #expect(used.status == 0, "\(used.standardError)")
        #expect(server.requests.last?.header("Cookie") == "sid=31d4" && server.requests.last?.header("X-Team") == "blue")
        #expect(try Data(contentsOf: file) == before)
        let again = try await UploaderProcess.run(["127.0.0.1:\(server.port)/page", "--session-read-only", file.path])
        #expect(again.outputText == "cookie=sid=31d4")
        try await server.stop()
    }

    @Test func theJarGoesToStandardOutputWithADash() async throws {
        let server = try await Self.server()
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/login", "-c", "-"])
        #expect(result.outputText.hasPrefix("in# Netscape HTTP Cookie File\n") && result.outputText.hasSuffix("\tsid\t31d4\n"), "\(result.outputText)")
        try await server.stop()
    }

    @Test func aMalformedJarLineIsBadInputNamingTheFileAndLine() async throws {
        let jar = folder.appending(path: "jar.txt")
        try "# Netscape HTTP Cookie File\n127.0.0.1\tFALSE\t/\tyes\t0\tsid\t1\n".write(to: jar, atomically: true, encoding: .utf8)
        let result = try await UploaderProcess.run(["--dry-run", "127.0.0.1:1/page", "-b", jar.path])
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: -b/--cookie: the cookie file \(jar.path), line 2: the secure flag is 'yes'; give TRUE or FALSE\n")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func aSessionFileThatIsNotOursOrCannotBeReadIsBadInput() async throws {
        let foreign = folder.appending(path: "other.json")
        try #"{"name": "not a session"}"#.write(to: foreign, atomically: true, encoding: .utf8)
        let notOurs = try await UploaderProcess.run(["--dry-run", "127.0.0.1:1/page", "--session", foreign.path])
        #expect(notOurs.status == 2)
        #expect(notOurs.standardError == "uploader: --session: \(foreign.path) is not a session file (it is not JSON with __meta__, headers and cookies); name another session, or move that file away\n")
        #expect(try String(contentsOf: foreign, encoding: .utf8) == #"{"name": "not a session"}"#)
        let unreadable = try await UploaderProcess.run(["--dry-run", "127.0.0.1:1/page", "--session-read-only", folder.url.path + "/"])
        #expect(unreadable.status == 2)
        #expect(unreadable.standardError == "uploader: --session-read-only: the session file \(folder.url.path)/ cannot be read: Is a directory\n", "\(unreadable.standardError)")
    }

    @Test(arguments: [
        (["-b", "-"], "-b -: cookies from standard input are not read here; give a cookie file, or name=value"),
        (["--session", "a b"], "--session 'a b': a session name is letters, digits, '_', '.' and '-'; give a path with a / for a file elsewhere"),
        (["--session", "a", "--session-read-only", "b"], "--session and --session-read-only name one session two ways; choose one (see 'uploader --help')"),
    ])
    func aCookieOrSessionOptionThatCannotBeUsedIsBadInput(arguments: [String], message: String) async throws {
        let result = try await UploaderProcess.run(["--dry-run", "127.0.0.1:1/page"] + arguments)
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: \(message)\n")
        #expect(result.standardOutput.isEmpty)
    }

    @Test func anUnreadableCookieFileAndASessionCookieThatCannotBeSentAreBadInput() async throws {
        let folderPath = folder.url.path + "/"
        let unreadable = try await UploaderProcess.run(["--dry-run", "127.0.0.1:1/page", "-b", folderPath])
        #expect(unreadable.status == 2)
        #expect(unreadable.standardError == "uploader: -b/--cookie: the cookie file \(folderPath) cannot be read: Is a directory\n")
        let session = folder.appending(path: "s.json")
        try #"{"__meta__": {"about": "uploader session file"}, "headers": [], "cookies": [{"name": "a", "value": "b\nc", "domain": "", "path": "/", "secure": false}]}"#
            .write(to: session, atomically: true, encoding: .utf8)
        let badCookie = try await UploaderProcess.run(["--dry-run", "127.0.0.1:1/page", "--session", session.path])
        #expect(badCookie.status == 2)
        #expect(badCookie.standardError == "uploader: --session: the session file \(session.path), cookie 1: its name is empty or its name or value holds ';', '=' or a control character, which cannot be sent\n")
    }

    @Test func aJarThatCannotBeWrittenFailsTheRunAfterTheExchange() async throws {
        let server = try await Self.server()
        let jar = folder.appending(path: "missing/jar.txt")
        let result = try await UploaderProcess.run(["127.0.0.1:\(server.port)/login", "-c", jar.path])
        #expect(result.status == 1)
        #expect(result.outputText == "in")
        #expect(result.standardError == "uploader: -c/--cookie-jar: the cookie jar \(jar.path) cannot be written: No such file or directory\n", "\(result.standardError)")
        try await server.stop()
    }

    @Test func aDryRunShowsTheCookiesItWouldSend() async throws {
        let jar = folder.appending(path: "jar.txt")
        try "127.0.0.1\tFALSE\t/\tFALSE\t0\tmine\t1\n".write(to: jar, atomically: true, encoding: .utf8)
        let result = try await UploaderProcess.run(["--dry-run", "127.0.0.1:1/page", "-b", jar.path])
        #expect(result.status == 0)
        #expect(result.outputText.contains("\r\nCookie: mine=1\r\n"), "\(result.outputText)")
    }
}
