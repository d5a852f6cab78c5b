import Foundation
import TestSupport
import Testing
@testable import uploader

/// Every cell of the options × kinds table (``OptionRule/table``) through
/// the built binary: each option given to each kind of upload, as a dry
/// run. A refused cell exits 2 with the one message naming the option and
/// the kind, nothing written; a cell the table allows is never refused
/// that way, and is not silently ignored: the dry run with the option
/// differs from the one without it (exit status, what is written, what is
/// said), unless ``unseenInADryRun`` names the cell with the reason and the
/// tests that show its effect. A row with no example here fails, so a new
/// option's row is run as soon as it is added.
@Suite struct OptionKindTableTests {
    /// The command of each kind, as a dry run: the files are the scratch
    /// folder's, the servers closed ports (a refusal must come first).
    static func command(for kind: UploadKind, in scratch: ScratchFolder) throws -> [String] {
        let file = try scratch.file("f.txt", "hello")
        let tree = scratch.url.appending(path: "tree")
        try FileManager.default.createDirectory(at: tree, withIntermediateDirectories: true)
        try Data("one".utf8).write(to: tree.appending(path: "one.txt"))
        let form = try scratch.file("form.json", #"{"url": "http://127.0.0.1:1/bucket", "fields": {"key": "k"}}"#)
        switch kind {
        case .plain: return ["--dry-run", "127.0.0.1:1/up", "--boundary", "B"]
        case .resumable: return ["--dry-run", "--resumable", "127.0.0.1:1/up", "f@\(file)", "--boundary", "B"]
        case .tus: return ["--dry-run", "--tus", "127.0.0.1:1/files", "f@\(file)"]
        case .object: return ["--dry-run", "s3://bucket/key", file, "--endpoint-url", "http://127.0.0.1:1"]
        case .objectTree: return ["--dry-run", "s3://bucket/p/", tree.path, "-r", "--endpoint-url", "http://127.0.0.1:1"]
        case .presignedPost: return ["--dry-run", "--presigned-post", form, file]
        }
    }

    /// How each row's option is given, by the option's name in messages.
    static func example(of option: String, in scratch: ScratchFolder) -> [String]? {
        let path = scratch.url.path
        return [
            "-F/--form-part": ["-F", "x=y"], "--multipart": ["--multipart"], "--form": ["--form"], "--json": ["--json"],
            "--data": ["--data", "x"], "-H/--header": ["-H", "X-A: b"], "--ignore-stdin": ["--ignore-stdin"], "--chunked": ["--chunked"], "--gzip": ["--gzip"], "--boundary": ["--boundary", "b"],
            "--dry-run/--offline": ["--offline"], "--check-status": ["--check-status"], "-p/--print": ["--print", "H"], "-o/--output": ["-o", "\(path)/out"], "--timeout": ["--timeout", "5"], "--retry": ["--retry", "1"], "--retry-max-time": ["--retry-max-time", "30"],
            "--resumable": ["--resumable"], "--tus": ["--tus"], "--chunk-size": ["--chunk-size", "2"],
            "--resume-from": ["--resume-from", "http://127.0.0.1:1/u/1"], "--state-dir": ["--state-dir", "\(path)/state"],
            "--endpoint-url": ["--endpoint-url", "http://127.0.0.1:2"], "--region": ["--region", "eu-west-1"],
            "--part-size": ["--part-size", "8M"], "--concurrency": ["--concurrency", "2"], "--multipart-threshold": ["--multipart-threshold", "1"],
            "--presigned-post": ["--presigned-post", "\(path)/form.json"], "-r/--recursive": ["-r"],
            "--max-redirects": ["-L", "--max-redirects", "5"], "-L/--follow": ["-L"], "--profile": ["--profile", "p"],
            "--cacert": ["--cacert", "\(path)/ca.pem"], "-k/--insecure": ["-k"], "--cert": ["--cert", "\(path)/c.pem", "--key", "\(path)/k.pem"],
            "--key": ["--cert", "\(path)/c.pem", "--key", "\(path)/k.pem"], "--proxy": ["--proxy", "http://127.0.0.1:1"],
            "--noproxy": ["--noproxy", "*"], "-a/--auth": ["-a", "u:p"], "--bearer": ["--bearer", "T"], "--netrc": ["--netrc"], "--netrc-file": ["--netrc-file", "\(path)/netrc"], "--netrc-optional": ["--netrc-optional"],
            "--progress/--no-progress": ["--no-progress"], "-v/--verbose": ["-v"], "--print-response-headers": ["--print-response-headers"],
            "--pretty": ["--pretty=format"], "--compressed": ["--compressed"],
            "-b/--cookie": ["-b", "a=1"], "-c/--cookie-jar": ["-c", "\(path)/jar"],
            "--session": ["--session", storedSession(at: "\(path)/session.json")], "--session-read-only": ["--session-read-only", storedSession(at: "\(path)/read-only.json")],
        ][option]
    }

    /// What both dry runs of an allowed cell share besides the kind's
    /// command, where the option's effect needs something to act on: a
    /// part for `--boundary`, a field for `--gzip` and `-p H`, a body read
    /// from standard input for `--chunked` and `--json` (whose type is
    /// otherwise sniffed), piped bytes for `--ignore-stdin`, a directory
    /// item for `-r`.
    static func context(of option: String, for kind: UploadKind, in scratch: ScratchFolder) -> (arguments: [String], input: [UInt8]?) {
        switch (option, kind) {
        case ("--boundary", .plain): (["-F", "x=y"], nil)
        case ("--gzip", .plain), ("-p/--print", .plain): (["a=b"], nil)
        case ("--json", .plain): ([], Array("abc".utf8))
        case ("--chunked", _): (["--data", "-"], Array("abc".utf8))
        case ("--ignore-stdin", _): ([], Array("piped\n".utf8))
        case ("-r/--recursive", .plain), ("-r/--recursive", .resumable): (["d@\(scratch.url.path)/tree"], nil)
        default: ([], nil)
        }
    }

    /// Writes at `path` a session an earlier run kept, holding one header
    /// that the request then carries, and gives `path`.
    private static func storedSession(at path: String) -> String {
        let session = #"{"__meta__": {"about": "uploader session file"}, "headers": [{"name": "X-Kept", "value": "1"}], "cookies": []}"#
        #expect(FileManager.default.createFile(atPath: path, contents: Data(session.utf8)), "\(path)")
        return path
    }

    /// The allowed cells whose effect a dry run cannot show, each with why
    /// and the tests that show it; `nil` kinds: every kind that takes it.
    static let unseenInADryRun: [String: (kinds: Set<UploadKind>?, reason: String)] = [
        "--dry-run/--offline": (nil, "every command here is a dry run; --offline is its other spelling (PeerSpellingTests)"),
        "--resumable": ([.resumable], "chooses this kind, so its command has it already"),
        "--tus": ([.tus], "chooses this kind, so its command has it already"),
        "--presigned-post": ([.presignedPost], "chooses this kind, so its command has it already"),
        "-r/--recursive": ([.objectTree], "chooses this kind with s3://, so its command has it already"),
        // A resumable upload's dry run writes its first request: the draft's
        // creation, without the body; tus's OPTIONS, which opens every upload.
        "-F/--form-part": ([.resumable, .tus], "the body or tus metadata, sent after the first request a dry run writes (UploaderResumableTests)"),
        "--multipart": ([.resumable], "the body, sent in the appends after the creation a dry run writes (UploaderResumableTests)"),
        "--chunk-size": ([.resumable, .tus], "the size of each append or PATCH, sent after the first request a dry run writes (UploaderResumableTests)"),
        "--resume-from": ([.tus], "where the upload continues, asked after the OPTIONS request a tus dry run writes (UploaderResumableTests)"),
        "--timeout": (nil, "bounds the wait for an answer, which a dry run never waits for (UploaderTimeoutTests, every kind)"),
        "--retry": (nil, "the attempts after a failure, which a dry run never meets (UploaderNetworkTests, UploaderResumableTests, UploaderObjectStorageHostileStoreTests)"),
        "--retry-max-time": (nil, "bounds the retries, which a dry run never makes (UploaderRetryMaxTimeTests)"),
        "-c/--cookie-jar": (nil, "written when a run has its answer; a dry run writes no file (UploaderCookieTests)"),
        "--state-dir": (nil, "where state is kept between runs; one run shows nothing of it (UploaderResumeStateTests, KilledMultipartUpload)"),
        "--part-size": (nil, "the size of the parts after CreateMultipartUpload, the one request a dry run writes (UploaderObjectStorageTests, UploaderObjectStorageHostileStoreTests)"),
        "--concurrency": (nil, "requests in flight at once; a dry run sends none (UploaderObjectStorageTests, UploaderObjectStorageHostileStoreTests)"),
        "--max-redirects": (nil, "redirects followed, which a dry run never receives (UploaderRedirectTests)"),
        "-L/--follow": (nil, "redirects followed, which a dry run never receives (UploaderRedirectTests)"),
        "--cacert": (nil, "the connection's trust; a dry run connects nowhere (UploaderNetworkTests)"),
        "--cert": (nil, "the connection's client certificate; a dry run connects nowhere (UploaderNetworkTests)"),
        "--key": (nil, "the connection's client key; a dry run connects nowhere (UploaderNetworkTests)"),
        "--proxy": (nil, "the connection's route; a dry run connects nowhere (UploaderNetworkTests)"),
        "--noproxy": (nil, "the connection's route; a dry run connects nowhere (UploaderNetworkTests)"),
        "--progress/--no-progress": (nil, "the bar drawn while sending (UploaderTerminalOutputTests)"),
        "-v/--verbose": (nil, "the heads as they are sent and received (UploaderVerboseTests)"),
        "--print-response-headers": (nil, "the response's head, which a dry run has none of (UploaderCommandTests)"),
        "--check-status": (nil, "HTTPie's spelling of what the uploader always does (exit 4 for a 4xx, 5 for a 5xx), taken so HTTPie's commands run (PeerSpellingTests)"),
        "--pretty": (nil, "the response body's style, which a dry run has none of (UploaderPrettyOutputTests)"),
    ]

    /// Keys that sign nothing real; the store is never reached. `NETRC`
    /// names a file that has a login for the commands' host, read only
    /// with `--netrc` or `--netrc-optional`.
    static func environment(in scratch: ScratchFolder) throws -> [String: String] {
        let netrc = try scratch.file("netrc", "machine 127.0.0.1 login user password secret\n")
        return ["AWS_ACCESS_KEY_ID": "AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_PROFILE": "", "NETRC": netrc]
    }

    /// A dry run's outcome with what changes from run to run masked: a
    /// multipart boundary the command does not give (a presigned POST's),
    /// the signing time and the signature it makes.
    static func outcome(_ result: UploaderProcess.Result) -> String {
        var text = "\(result.status)\n\(result.outputText)\n\(result.standardError)"
        if let range = text.range(of: #"boundary=[^\r\n;]+"#, options: .regularExpression) {
            text = text.replacingOccurrences(of: String(text[range].dropFirst("boundary=".count)), with: "BOUNDARY")
        }
        for (pattern, mask) in [(#"[0-9]{8}T[0-9]{6}Z"#, "TIME"), (#"/[0-9]{8}/"#, "/DAY/"), (#"Signature=[0-9a-f]{64}"#, "Signature=SIGNATURE")] {
            text = text.replacingOccurrences(of: pattern, with: mask, options: .regularExpression)
        }
        return text
    }

    @Test(arguments: UploadKind.allCases)
    func everyOptionIsRefusedOrTakenAsTheTableSays(kind: UploadKind) async throws {
        let scratch = try ScratchFolder()
        let command = try Self.command(for: kind, in: scratch)
        let environment = try Self.environment(in: scratch)
        var without: [[String]: String] = [:]
        for rule in OptionRule.table {
            let example = try #require(Self.example(of: rule.option, in: scratch), "no example for \(rule.option)")
            let result = try await UploaderProcess.run(command + example, environment: environment)
            if let message = rule.message(for: kind) {
                #expect(result.status == 2, "\(rule.option) for \(kind): \(result.standardError)")
                #expect(result.standardError == "uploader: \(message)\n", "\(rule.option) for \(kind)")
                #expect(result.standardOutput.isEmpty, "\(rule.option) for \(kind) wrote a request")
                #expect(message.contains(rule.option) && message.contains(kind.name))
                continue
            }
            // An option that chooses a kind of its own (--presigned-post
            // given with --resumable) may leave another refused there.
            #expect(!result.standardError.contains("does not apply to \(kind.name)"), "\(rule.option) for \(kind): \(result.standardError)")
            if let unseen = Self.unseenInADryRun[rule.option], unseen.kinds?.contains(kind) ?? true { continue }
            // Taken: the option changes what the dry run writes or says.
            let context = Self.context(of: rule.option, for: kind, in: scratch)
            let with = context.arguments.isEmpty && context.input == nil ? result
                : try await UploaderProcess.run(command + context.arguments + example, standardInput: context.input, environment: environment)
            let key = context.arguments + [context.input.map { String(decoding: $0, as: UTF8.self) } ?? ""]
            if without[key] == nil {
                without[key] = Self.outcome(try await UploaderProcess.run(command + context.arguments, standardInput: context.input, environment: environment))
            }
            #expect(Self.outcome(with) != without[key], "\(rule.option) is taken by \(kind.name) and changes nothing a dry run writes or says: \(Self.outcome(with))")
        }
    }

    /// The kind is decided from the options and the positionals together:
    /// two that each choose one are bad input naming both.
    @Test(arguments: [
        (["--resumable", "--tus", "127.0.0.1:1/up", "f@/etc/hostname"], "--resumable and --tus are two protocols; choose one"),
        (["--presigned-post", "form.json", "s3://bucket/key", "/etc/hostname"], "--presigned-post posts to the form's own URL; drop the s3:// location"),
    ])
    func twoKindsAreBadInput(arguments: [String], message: String) async throws {
        let result = try await UploaderProcess.run(["--dry-run"] + arguments, environment: Self.environment(in: ScratchFolder()))
        #expect(result.status == 2)
        #expect(result.standardError == "uploader: \(message)\n")
    }
}

/// The docs' copy of the options × kinds table is the uploader's own.
@Suite struct OptionKindTableDocsTests {
    @Test(arguments: ["options-by-kind", "exit-status"])
    func theCLIReferenceHoldsTheTable(marker: String) throws {
        let made = marker == "exit-status" ? ExitStatus.markdownTable : OptionRule.markdownTable
        let docs = TestPackage.root.appending(path: "docs/uploader.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        let begin = "<!-- \(marker): begin -->\n", end = "<!-- \(marker): end -->"
        let start = try #require(text.range(of: begin)), finish = try #require(text.range(of: end))
        let copied = String(text[start.upperBound..<finish.lowerBound])
        if copied != made, ProcessInfo.processInfo.environment["RECORD_DOCS"] == "1" {
            try (String(text[..<start.upperBound]) + made + String(text[finish.lowerBound...])).write(to: docs, atomically: true, encoding: .utf8)
        }
        #expect(copied == made, "docs/uploader.md's \(marker) table differs from the uploader's: run with RECORD_DOCS=1 to copy it")
    }
}
