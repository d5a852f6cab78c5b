import AsyncHTTPClient
import Foundation
import NIOPosix
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import UploaderItems

extension Uploader {
    /// Runs the command and returns the exit status; messages go to standard error.
    func execute(rawArguments: [String]) async -> ExitStatus {
        let request: PreparedRequest
        do {
            request = try prepareRequest(rawArguments: rawArguments)
        } catch {
            report("\(error)")
            return .badInput
        }
        let destination: OutputFile
        do {
            destination = try output.map { path throws(OutputError) in try OutputFile(path: path) } ?? .standardOutput
        } catch {
            report(error.description)
            return .failure
        }
        if dryRun {
            return await writeDryRun(of: request, to: destination)
        }
        return await send(request, to: destination)
    }

    /// Checks every input and builds the request; nothing has been sent yet.
    private func prepareRequest(rawArguments: [String]) throws(InputError) -> PreparedRequest {
        guard retry >= 0 else { throw InputError("--retry \(retry): the retry count must be 0 or more") }
        if let timeout, !(timeout > 0) || !timeout.isFinite {
            throw InputError("--timeout \(timeout): the timeout must be a positive number of seconds")
        }
        let kinds: [(Bool, RequestAssembler.BodyKind, String)] = [(json, .json, "--json"), (form, .form, "--form"), (multipart, .multipart, "--multipart")]
        let chosen = kinds.filter(\.0)
        guard chosen.count <= 1 else {
            throw InputError("\(chosen.map(\.2).joined(separator: " and ")) contradict each other; choose one body kind")
        }
        let invocation = try Invocation(positionals: arguments, formParts: formParts, headers: headers, rawArguments: rawArguments)
        let assembler = RequestAssembler(
            invocation: invocation, explicitKind: chosen.first?.1, data: data,
            gzip: gzip, boundary: boundary, timeout: timeout
        )
        let request = try assembler.prepare()
        do {
            _ = try request.raw()  // a head that HTTP/1.1 cannot carry is bad input too
        } catch {
            throw InputError(error.description)
        }
        return request
    }

    /// Writes the exact request bytes instead of sending them.
    private func writeDryRun(of request: PreparedRequest, to destination: OutputFile) async -> ExitStatus {
        do {
            for try await chunk in try request.raw().chunks() {
                try destination.write(chunk)
            }
            try destination.synchronize()
            return .success
        } catch let error as OutputError {
            report(error.description)
            return .failure
        } catch {
            report("\(error)")  // a file that changed size, a boundary found in standard input
            return .networkFailure
        }
    }

    /// Sends the request, writes the response body, and maps the status to an exit code.
    private func send(_ request: PreparedRequest, to destination: OutputFile) async -> ExitStatus {
        var configuration = HTTPClient.Configuration()
        configuration.redirectConfiguration = .disallow  // as curl and HTTPie without their follow options
        configuration.decompression = .disabled  // the body goes out unchanged
        // A refused connection should fail at once, not after the connect
        // timeout: --retry decides whether to try again.
        configuration.connectionPool.retryConnectionEstablishment = false
        let client = HTTPClient(eventLoopGroup: Self.eventLoops, configuration: configuration)

        var middleware: [any RequestMiddleware] = []
        if retry > 0 {
            middleware.append(RetryMiddleware(
                maximumAttempts: retry + 1,
                retriesNonIdempotentRequests: true,  // --retry asks for it, as curl's does
                retryableStatuses: Set([408, 429]).union(500...599)
            ))
        }
        let requestClient = RequestClient(transport: AsyncHTTPClientTransport(client: client), middleware: middleware)

        let standardError = OutputFile.standardError
        if verbose, let raw = try? request.raw() {
            standardError.writeText(String(decoding: raw.head, as: UTF8.self))
        }
        let showsProgress = request.body != nil && (progress ?? standardError.isTerminal)
        let bar = showsProgress ? ProgressBar() : nil

        let response: Response
        do {
            response = try await requestClient.send(request) { update in
                bar?.update(sent: update.bytesSent, total: update.totalBytes)
            }
            bar?.finish()
        } catch {
            bar?.finish()
            report("\(error)")
            try? await client.shutdown()
            return .networkFailure
        }
        try? await client.shutdown()

        if verbose || printResponseHeaders {
            standardError.writeText(Self.describeHead(of: response))
        }
        do {
            try destination.write([UInt8](response.body))
            try destination.synchronize()
        } catch {
            report(error.description)
            return .failure
        }
        let status = ExitStatus(responseStatus: response.status.code)
        if status != .success {
            report("the server answered \(response.status.code) \(response.status.reasonPhrase)")
        }
        return status
    }

    /// One event loop, for the process's lifetime: one request needs no more,
    /// and one loop keeps the transport's wait for it between body chunks
    /// short. Never shut down: AsyncHTTPClient's clean-up of a failed upload
    /// may still call on it after the response is in.
    private static let eventLoops = MultiThreadedEventLoopGroup(numberOfThreads: 1)

    /// The response's status line and header fields, as HTTP/1.1 writes them.
    static func describeHead(of response: Response) -> String {
        var text = "HTTP/1.1 \(response.status.code) \(response.status.reasonPhrase)\r\n"
        for field in response.headerFields {
            text += "\(field.name.rawName): \(field.value)\r\n"
        }
        return text + "\r\n"
    }

    private func report(_ message: String) {
        OutputFile.standardError.writeText("uploader: \(message)\n")
    }
}
