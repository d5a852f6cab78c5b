import Foundation
import RequestBuilder
import Synchronization
import UploaderItems

/// The cookies and session of one run (`-b`, `-c`, `--session`,
/// `--session-read-only`): read before the request is built, sent and kept
/// by the library's ``CookieMiddleware`` on every hop, written when the run
/// ends. `nil` (``current``) when no option of them is given, so a run
/// without them keeps no cookies, as curl and HTTPie without them.
final class CookieRun: Sendable {
    /// The cookies sent and kept.
    let store: InMemoryCookieStore
    /// `-c FILE` (`-` for standard output).
    let jarPath: String?
    /// The session file written at the end, with the headers it keeps;
    /// `nil` for none or `--session-read-only`.
    let session: (path: String, headers: [SessionFile.Header])?

    private init(store: InMemoryCookieStore, jarPath: String?, session: (path: String, headers: [SessionFile.Header])?) {
        self.store = store
        self.jarPath = jarPath
        self.session = session
    }

    /// The run's, once ``start(_:assembler:)`` has made it.
    private static let shared = Mutex<CookieRun?>(nil)
    static var current: CookieRun? { shared.withLock { $0 } }

    /// The middleware that sends and keeps the run's cookies, innermost
    /// (after redirects and retries, so each hop and attempt gets the
    /// cookies for its own URL).
    static var middleware: [any RequestMiddleware] {
        current.map { [CookieMiddleware(store: $0.store)] } ?? []
    }

    /// Reads `-b` and the session for the request `assembler` is about to
    /// build, and adds to its items what they send: `-b`'s text as a
    /// `Cookie` item, the session's headers the command does not give
    /// (its `Authorization` only when no other credential is given). With
    /// `--dry-run`, which has no middleware, the cookies for the URL are an
    /// item too, so the dry run shows what would be sent.
    static func start(_ options: UploaderOptions, assembler: inout RequestAssembler, environment: [String: String] = ProcessEnvironment.variables) throws(InputError) {
        let sessionArgument = options.session ?? options.sessionReadOnly
        guard options.cookie != nil || options.cookieJar != nil || sessionArgument != nil else { return }
        let url = assembler.invocation.url
        let host = url.host(percentEncoded: false) ?? ""
        var jar = CookieJar()
        var givenHeaders = assembler.invocation.items.compactMap { item -> (String, String)? in
            if case .header(let name, let value) = item { return (name, value) }
            return nil
        }
        if let cookie = options.cookie {
            switch try CookieOption.read(cookie, url: url) {
            case .field(let text): assembler.invocation.items.append(.header(name: "Cookie", value: text))
            case .jar(let read): jar = read
            }
        }
        var session: (path: String, headers: [SessionFile.Header])?
        if let sessionArgument {
            let option = options.session != nil ? "--session" : "--session-read-only"
            let path = try SessionFile.path(for: sessionArgument, option: option, url: url, environment: environment)
            let loaded = try SessionFile.load(path: path, option: option) ?? SessionFile()
            for cookie in loaded.jar(host: host).cookies { jar.insert(cookie) }
            let hasCredentials = assembler.authorization != nil || assembler.invocation.credentials != nil || assembler.netrcCredentials != nil
            for header in loaded.headers where !givenHeaders.contains(where: { $0.0.lowercased() == header.name.lowercased() }) {
                if header.name.lowercased() == "authorization", hasCredentials { continue }
                assembler.invocation.items.append(.header(name: header.name, value: header.value))
            }
            if options.session != nil {
                if let authorization = assembler.authorization ?? assembler.invocation.credentials.map({ "Basic " + Data($0.utf8).base64EncodedString() }) {
                    givenHeaders.append(("Authorization", authorization))
                }
                session = (path, Self.kept(loaded.headers, updatedBy: givenHeaders))
            }
        }
        if options.dryRun, let field = jar.cookieField(for: url) {
            assembler.invocation.items.append(.header(name: "Cookie", value: field))
        }
        let run = CookieRun(store: InMemoryCookieStore(jar), jarPath: options.cookieJar, session: session)
        shared.withLock { $0 = run }
    }

    /// The headers a session keeps: `old`, each replaced by the command's
    /// header of the same name (removed by an empty one), then the
    /// command's new ones; never the ones that describe one request's body
    /// or condition (`Content-*`, `If-*`), nor `Cookie` and `Host`, as HTTPie.
    static func kept(_ old: [SessionFile.Header], updatedBy given: [(String, String)]) -> [SessionFile.Header] {
        var headers = old
        for (name, value) in given {
            let key = name.lowercased()
            guard !key.hasPrefix("content-"), !key.hasPrefix("if-"), key != "cookie", key != "host" else { continue }
            headers.removeAll { $0.name.lowercased() == key }
            if !value.isEmpty { headers.append(SessionFile.Header(name: name, value: value)) }
        }
        return headers
    }

    /// Writes `-c`'s jar and the session, after the exchange (whatever its
    /// status, as curl writes its jar); a file that cannot be written is
    /// reported and fails a run that had succeeded.
    static func finish(after status: ExitStatus, dryRun: Bool) -> ExitStatus {
        guard let run = current, !dryRun else { return status }
        var jar = run.store.snapshot()
        jar.removeExpired()
        var result = status
        if let jarPath = run.jarPath {
            let text = Data(jar.netscapeFormat.utf8)
            do {
                if jarPath == "-" {
                    try OutputFile.standardOutput.write(Array(text))
                } else {
                    try PrivateFile.write(text, to: jarPath)
                }
            } catch {
                Diagnostics.report("-c/--cookie-jar: the cookie jar \(jarPath.echoed) cannot be written: \(error)")
                if result == .success { result = .failure }
            }
        }
        if let (path, headers) = run.session {
            do {
                let folder = URL(filePath: path).deletingLastPathComponent().path
                if let problem = PrivateFile.createFolder(folder) {
                    throw InputError(.unusableFile, "cannot create its folder (\(problem))")
                }
                try PrivateFile.write(SessionFile(headers: headers, cookies: SessionFile.stored(jar)).encoded(), to: path)
            } catch {
                Diagnostics.report("--session: the session file \(path.echoed) cannot be written: \(error)")
                if result == .success { result = .failure }
            }
        }
        return result
    }
}
