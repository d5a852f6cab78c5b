import HTTPBody
import HTTPTypes
import RequestBuilder
import UploaderItems

/// The one request a plain upload or a presigned POST sends, with where its
/// answer goes: written (`--dry-run`), or sent with `-L`'s redirects and
/// `--retry`'s attempts and the response written as `--print` and
/// `--pretty` ask.
struct OneRequest {
    let request: PreparedRequest
    let destination: OutputTarget
    let options: UploaderOptions
    let network: any HTTPTransport

    /// `request` and its output target (`-o`, checked against the files the
    /// request reads, `inputPaths`).
    init(_ request: PreparedRequest, inputPaths: [String], options: UploaderOptions, network: any HTTPTransport) throws(InputError) {
        self.request = request
        destination = try OutputTarget(path: options.output, inputPaths: inputPaths)
        self.options = options
        self.network = network
    }

    /// Writes the exact request bytes instead of sending them; `--print`'s
    /// request letters choose the head, the body or both, as HTTPie's
    /// `--offline` does (its response letters have nothing to show).
    func dryRun() async -> ExitStatus {
        if let selection = options.printed.flatMap(PrintSelection.init), !(selection.requestHead && selection.requestBody) {
            return await writeRequest(head: selection.requestHead, body: selection.requestBody)
        }
        return await DryRunOutput.write(request, to: destination)
    }

    /// Sends the request (first writing it, when `--print` asks) and writes
    /// the response.
    func run() async -> ExitStatus {
        let selection = options.printed.flatMap(PrintSelection.init) ?? .unasked(
            method: request.head.method.rawValue, outputIsTerminal: destination == .standardOutput && OutputFile.standardOutput.isTerminal
        )
        if selection.writesRequest {
            // The request as it goes (its body read for this first, then again to send).
            let written = await writeRequest(head: selection.requestHead, body: selection.requestBody)
            guard written == .success else { return written }
        }
        return await send(printing: selection)
    }

    /// Writes the request's head, body or both, as they go on the wire, to
    /// the destination (``PrintSelection``'s `H` and `B`), before it is
    /// sent; the body is read for this and again to be sent. A terminal is
    /// shown no binary bytes (``TerminalBinaryFilter``).
    private func writeRequest(head: Bool, body: Bool) async -> ExitStatus {
        do {
            let raw = request.raw()
            let output = try destination.open()
            var filter: TerminalBinaryFilter? = destination == .standardOutput && output.isTerminal ? TerminalBinaryFilter() : nil
            if head { try output.write(raw.head) }
            if body {
                var headLeft = raw.head.count
                for try await chunk in raw.chunks() {
                    let skipped = min(headLeft, chunk.count)
                    headLeft -= skipped
                    if skipped < chunk.count { try output.write(filter?.pass(Array(chunk[skipped...])) ?? Array(chunk[skipped...])) }
                }
                if let note = filter?.note(contentType: nil) {
                    TerminalLine.endOpenOutputLine()
                    try output.write(Array(note.utf8))
                }
                TerminalLine.endOpenOutputLine()
            }
            return .success
        } catch let error as OutputError {
            return .writeFailed(error)
        } catch {
            Diagnostics.report("\(error)")
            return .badInput
        }
    }

    /// Sends the request, streams the response body to its target, and maps
    /// the status to an exit code.
    private func send(printing selection: PrintSelection) async -> ExitStatus {
        let showsProgress = request.body != nil && (options.progress ?? ProgressBar.drawsUnasked)
        let bar = showsProgress ? ProgressBar(fileEnds: request.body?.fileEnds ?? []) : nil
        // Redirects outermost: each hop is retried on its own, and -v (the
        // transport) prints every hop's request and response heads.
        var middleware: [any RequestMiddleware] = []
        if options.follow {
            middleware.append(RedirectMiddleware(maximumRedirects: options.maxRedirects ?? UploaderOptions.defaultMaximumRedirects))
        }
        if let retry = options.retry, retry > 0 {
            middleware.append(RetryMiddleware.command(retries: retry, within: options.retryBudget, bar: bar))
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
            Diagnostics.report(error.description)
            return .badInput
        } catch {
            bar?.finish()
            Diagnostics.report("\(error)")
            return .networkFailure
        }

        if options.printsFinalHead {
            OutputFile.standardError.writeText(response.head.headText())
        }
        // The head is in: only now is -o created or truncated (as curl does).
        do {
            // After the request's own lines, when they were asked for.
            let output = try destination.open(appending: selection.writesRequest)
            if selection.responseHead {
                try output.write(Array(response.head.headText().utf8))
            }
            if selection.responseBody {
                var writer = ResponseBodyWriter(style: PrettyStyle.resolved(options.pretty, target: destination))
                writer.screensBinary = destination == .standardOutput && output.isTerminal
                let body = try CompressedResponse.body(of: response, decoding: options.compressed)
                try await writer.write(body, headerFields: response.head.headerFields, to: output)
            } else {
                for try await _ in response.body {}  // read to its end: the exchange is whole
            }
            try output.synchronize()
            TerminalLine.endOpenOutputLine()
        } catch let error as OutputError {
            return .writeFailed(error)
        } catch let error as ContentDecodingError {
            Diagnostics.report(CompressedResponse.message(for: error, of: request, answer: response.head))
            return .networkFailure
        } catch {
            // The server answered, so the upload may have taken effect: never retried.
            Diagnostics.report("\(error)")
            return .networkFailure
        }
        return .answering(response.status)
    }
}
