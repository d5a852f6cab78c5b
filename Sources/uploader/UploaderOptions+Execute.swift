import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import NIOCore
import NIOPosix
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import UploaderItems

extension UploaderOptions {
    /// Runs the command, whose kind is decided and whose options that kind
    /// takes (``OptionRule/table``), and returns the exit status; messages
    /// go to standard error.
    func execute(_ commandLine: CommandLineSplit, kind: UploadKind) async -> ExitStatus {
        warnIfInsecure()
        let network: any HTTPTransport
        do {
            let objectStoreBundle = kind.isObjectStorage ? try ObjectStoreCABundle.path(profile: profile, endpointURL: endpointURL) : nil
            network = try networkTransport(concurrentRequests: kind.concurrentRequests(self), objectStoreBundle: objectStoreBundle)
        } catch {
            report(error.description)
            return .badInput
        }
        switch kind {
        case .plain: return await executePlain(commandLine, network: network)
        case .resumable, .tus: return await executeResumable(commandLine, network: network)
        case .object: return await executeObjectStorage(commandLine, network: network)
        case .objectTree: return await executeRecursiveObjectStorage(commandLine, network: network)
        case .presignedPost: return await executePresignedPost(commandLine, network: network)
        }
    }

    /// Sends (or writes) the one request the items describe.
    private func executePlain(_ commandLine: CommandLineSplit, network: any HTTPTransport) async -> ExitStatus {
        await run(network: network) { () throws(InputError) in
            let (request, invocation) = try prepareRequest(commandLine)
            // The files a directory part sends (-r) are inputs too.
            let bodyFiles = recursive ? (request.body?.filesRead ?? []).map { RawArgument.decode($0.location.bytes) } : []
            return (request, invocation.inputPaths + dataPath + bodyFiles)
        }
    }

    /// Builds the request and its output target (`-o` checked against the
    /// files the request reads), then sends the request or, with
    /// `--dry-run`, writes it.
    func run(network: any HTTPTransport, _ prepare: () throws(InputError) -> (request: PreparedRequest, inputPaths: [String])) async -> ExitStatus {
        let request: PreparedRequest
        let destination: OutputTarget
        do throws(InputError) {
            let prepared = try prepare()
            request = prepared.request
            destination = try OutputTarget(path: output, inputPaths: prepared.inputPaths)
        } catch {
            report(error.description)
            return .badInput
        }
        if dryRun {
            return await writeDryRun(of: request, to: destination)
        }
        let selection = printed.flatMap(PrintSelection.init) ?? .unasked(
            method: request.head.method.rawValue, outputIsTerminal: destination == .standardOutput && OutputFile.standardOutput.isTerminal
        )
        if selection.writesRequest {
            // The request as it goes (its body read for this first, then again to send).
            let written = await writeRequest(request, head: selection.requestHead, body: selection.requestBody, to: destination)
            guard written == .success else { return written }
        }
        return await send(request, to: destination, with: network, printing: selection)
    }

    /// The file `--data @path` reads, if any.
    var dataPath: [String] {
        guard let data, data.hasPrefix("@") else { return [] }
        return [String(data.dropFirst())]
    }

    /// Checks every input and builds the request; nothing has been sent yet.
    /// `resumedBoundary` is a resumed upload's saved one, used unless
    /// `--boundary` is given. Piped input is the body only when
    /// `takesPipedInput`: a resumable upload's body must be there to resume.
    func prepareRequest(
        _ commandLine: CommandLineSplit, resumedBoundary: String? = nil, takesPipedInput: Bool = true
    ) throws(InputError) -> (PreparedRequest, Invocation) {
        let invocation = try Invocation(commandLine)
        var assembler = RequestAssembler(
            invocation: invocation, explicitKind: explicitBodyKind, data: data,
            gzip: gzip, boundary: boundary, timeout: requestTimeout
        )
        assembler.resumedBoundary = resumedBoundary
        assembler.recursive = recursive
        assembler.ignoresStandardInput = ignoreStdin || !takesPipedInput
        assembler.streamsStandardInput = chunked
        // Asked for only when no Authorization item wins over them (the
        // prompt of -a USER included).
        let hasAuthorizationItem = invocation.items.contains { item in
            switch item {
            case .header(let name, let value): name.lowercased() == "authorization" && !value.isEmpty
            case .fromFile(.header, let name, _): name.lowercased() == "authorization"  // Authorization:@file
            default: false
            }
        }
        if !hasAuthorizationItem {
            assembler.authorization = try explicitAuthorization()
            if invocation.credentials == nil, let host = invocation.url.host {
                assembler.netrcCredentials = try netrcCredentials(forHost: host)
            }
        }
        if !ignoreStdin, !assembler.readsStandardInput, StandardInputContent.hasWaitingBytes {
            // Piped bytes are never dropped without a word.
            report("warning: standard input is not read: the request's body comes from its items (--ignore-stdin says so and silences this)")
        }
        try CookieRun.start(self, assembler: &assembler)
        let request = try assembler.prepare()
        // Every part is typed: libmagic's database (up to 8 MB of pages once
        // it has looked at bytes no signature names) goes now, before the
        // connection's code and buffers need memory, not 10 ms into sending.
        MagicDatabase.releaseSharedIdleHandles()
        return (request, invocation)
    }

    /// Writes the request's head, body or both, as they go on the wire, to
    /// `target` (``PrintSelection``'s `H` and `B`), before it is sent; the
    /// body is read for this and again to be sent. A terminal is shown no
    /// binary bytes (``TerminalBinaryFilter``).
    private func writeRequest(_ request: PreparedRequest, head: Bool, body: Bool, to target: OutputTarget) async -> ExitStatus {
        do {
            let raw = request.raw()
            let destination = try target.open()
            var filter: TerminalBinaryFilter? = target == .standardOutput && destination.isTerminal ? TerminalBinaryFilter() : nil
            if head { try destination.write(raw.head) }
            if body {
                var headLeft = raw.head.count
                for try await chunk in raw.chunks() {
                    let skipped = min(headLeft, chunk.count)
                    headLeft -= skipped
                    if skipped < chunk.count { try destination.write(filter?.pass(Array(chunk[skipped...])) ?? Array(chunk[skipped...])) }
                }
                if let note = filter?.note(contentType: nil) {
                    TerminalLine.endOpenOutputLine()
                    try destination.write(Array(note.utf8))
                }
                TerminalLine.endOpenOutputLine()
            }
            return .success
        } catch let error as OutputError {
            return reportUnlessReaderLeft(error)
        } catch {
            report("\(error)")
            return .badInput
        }
    }

    /// Writes the exact request bytes instead of sending them.
    func writeDryRun(of request: PreparedRequest, to target: OutputTarget) async -> ExitStatus {
        do {
            let raw = request.raw()
            var destination: OutputFile?
            var filter: TerminalBinaryFilter? = target == .standardOutput && OutputFile.standardOutput.isTerminal ? TerminalBinaryFilter() : nil
            for try await chunk in raw.chunks() {
                // Opened with the first bytes, so a body that fails to open
                // (a file deleted since it was checked) leaves -o untouched.
                if destination == nil { destination = try target.open() }
                try destination?.write(filter?.pass(chunk) ?? chunk)
            }
            if let note = filter?.note(contentType: nil) {
                TerminalLine.endOpenOutputLine()
                try destination?.write(Array(note.utf8))
            }
            try (destination ?? target.open()).synchronize()
            return .success
        } catch let error as OutputError {
            return reportUnlessReaderLeft(error)
        } catch {
            report("\(error)")  // a file that changed size, a boundary found in standard input
            return .networkFailure
        }
    }

    /// Sends the request, streams the response body to its target, and maps
    /// the status to an exit code.
    private func send(
        _ request: PreparedRequest, to target: OutputTarget, with network: any HTTPTransport, printing selection: PrintSelection
    ) async -> ExitStatus {
        let standardError = OutputFile.standardError
        let showsProgress = request.body != nil && (progress ?? Self.drawsProgressUnasked)
        let bar = showsProgress ? ProgressBar(fileEnds: request.body?.fileEnds ?? []) : nil
        // Redirects outermost: each hop is retried on its own, and -v (the
        // transport) prints every hop's request and response heads.
        var middleware: [any RequestMiddleware] = redirectPolicy.map { [$0] } ?? []
        if let retry, retry > 0 {
            middleware.append(retryPolicy(retries: retry, bar: bar))
        }
        middleware += CookieRun.middleware
        let requestClient = RequestClient(transport: network, middleware: middleware)
        Interruption.shared.watch(bar)

        let response: StreamedResponse
        do {
            response = try await requestClient.stream(request) { update in
                bar?.update(sent: update.bytesSent, total: update.totalBytes)
            }
            bar?.finish()
        } catch let error as RequestError where error.code == .invalidRequest {
            // Nothing was sent: a request that cannot be made, such as an
            // https:// one whose trust roots the environment names wrongly.
            bar?.finish()
            report(error.description)
            return .badInput
        } catch {
            bar?.finish()
            report("\(error)")
            return .networkFailure
        }

        if printsFinalHead {
            standardError.writeText(Self.describeHead(of: response.head))
        }
        // The head is in: only now is -o created or truncated (as curl does).
        do {
            // After the request's own lines, when they were asked for.
            let destination = try target.open(appending: selection.writesRequest)
            if selection.responseHead {
                try destination.write(Array(Self.describeHead(of: response.head).utf8))
            }
            if selection.responseBody {
                var writer = ResponseBodyWriter(style: PrettyStyle.resolved(pretty, target: target))
                writer.screensBinary = target == .standardOutput && destination.isTerminal
                try await writer.write(response.body, headerFields: response.head.headerFields, to: destination)
            } else {
                for try await _ in response.body {}  // read to its end: the exchange is whole
            }
            try destination.synchronize()
            TerminalLine.endOpenOutputLine()
        } catch let error as OutputError {
            return reportUnlessReaderLeft(error)
        } catch {
            // The server answered, so the upload may have taken effect: never retried.
            report("\(error)")
            return .networkFailure
        }
        return exitStatus(answering: response.status)
    }

    /// A failed write of the output: reported, exit 1; but when the reader
    /// of a pipe went away (`uploader … | head -1`), the run ends quietly,
    /// as `cat` does, with the status a shell shows for a program that
    /// SIGPIPE ended (141). The tool ignores SIGPIPE, so that it never dies
    /// of a signal, and so sees the closed pipe as `EPIPE`.
    func reportUnlessReaderLeft(_ error: OutputError) -> ExitStatus {
        if error.errno == EPIPE { return .readerLeft }
        report(error.description)
        return .failure
    }

    /// The exit status for the server's answer, which is reported unless it is a success.
    func exitStatus(answering status: HTTPResponse.Status) -> ExitStatus {
        let exitStatus = ExitStatus(responseStatus: status.code)
        if exitStatus != .success {
            report("the server answered \(status.code) \(status.reasonPhrase.echoed)")
        }
        return exitStatus
    }

    /// `--retry N`'s rules: up to N more attempts after connection failures,
    /// timeouts, 408, 425, 429 and 5xx (never a permanent failure), within
    /// `--retry-max-time`, each wait noted on standard error, terminal or not
    /// (as curl warns), so a log shows why a run took longer.
    func retryPolicy(retries: Int, bar: ProgressBar?) -> RetryMiddleware {
        let attempts = retries + 1
        return RetryMiddleware(
            maximumAttempts: attempts,
            retriesNonIdempotentRequests: true,  // --retry asks for it, as curl's does
            maximumTotalTime: retryBudget,
            willRetry: { retry in
                bar?.clear()  // the message takes the bar's line; the next attempt draws it again
                Self.report("\(retry.reason); retrying in \(retry.delay.waitDescription) (attempt \(retry.attempt) of \(attempts))")
            }
        )
    }

    /// The client for the command: one event loop, no redirects, no
    /// decompression, and the trust the environment gives
    /// (`SSL_CERT_FILE`, `SSL_CERT_DIR`, which many systems set, both
    /// trusted when both are set), with the error each `https://` request
    /// gets when those name something that cannot be used.
    /// Made while the request is prepared (`Uploader.main()`; a dry run
    /// never starts the loop's thread) and never shut down: the process
    /// ends once the response is in and written, and a graceful shutdown
    /// would only make it wait for the pool to close connections the exit
    /// closes anyway.
    static let processClient: Result<(client: HTTPClient, httpsProblem: RequestError?), InputError> = {
        var configuration = AsyncHTTPClientTransport.configuration()
        let httpsProblem: RequestError?
        do {
            httpsProblem = try configuration.apply(TLSSettings.fromEnvironment())
        } catch {
            return .failure(InputError(.unusableFile, (error as? RequestError)?.description ?? "\(error)"))
        }
        configuration.redirectConfiguration = .disallow  // as curl and HTTPie without their follow options
        configuration.decompression = .disabled  // the body goes out unchanged
        // No tracing system is bootstrapped here: a span per request would
        // only cost its bookkeeping (a task-local and a dictionary of
        // attributes, and the runtime's type lookups for them).
        configuration.tracing.tracer = nil
        let client = HTTPClient(eventLoopGroup: eventLoops, configuration: configuration)
        // AsyncHTTPClient describes the loop for each connection's log
        // metadata, on the loop, after the connection is made: the first
        // description costs the runtime's type lookups for reflection (4M
        // instructions, 1 ms). The loop does it now instead, while it waits
        // for the request to be prepared.
        let loop = eventLoops.next()
        loop.execute { _ = String(describing: loop) }
        return .success((client, httpsProblem))
    }()

    /// One event loop, for the process's lifetime: one request needs no more,
    /// and one loop keeps the transport's wait for it between body chunks
    /// short. Never shut down: AsyncHTTPClient's clean-up of a failed upload
    /// may still call on it after the response is in.
    private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The response's status line and header fields, as HTTP/1.1 writes
    /// them (with `version` in the status line, HTTP/1.1 unless the
    /// transport said), the server's text escaped so it cannot drive the
    /// terminal.
    static func describeHead(of head: HTTPResponse, version: String? = nil) -> String {
        var text = "\(version ?? "HTTP/1.1") \(head.status.code) \(head.status.reasonPhrase.escapedForMessage)\r\n"
        for field in head.headerFields {
            text += "\(field.name.rawName): \(field.value.escapedForMessage)\r\n"
        }
        return text + "\r\n"
    }

    func report(_ message: String) {
        Self.report(message)
    }

    /// Writes one line to standard error: the libraries' advice to
    /// programmers in the command's words (``LibraryAdvice``), credentials
    /// in URLs hidden (``MessageRedaction``), overlong values cut
    /// (`cuttingLongRuns`), control characters escaped.
    static func report(_ message: String) {
        let text = MessageRedaction.masking(LibraryAdvice.rewriting(message)).cuttingLongRuns
        OutputFile.standardError.writeText("uploader: \(text.escapedForMessage)\n")
    }
}
