import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import ResumableUploads
import UploaderItems

/// `--resumable` (IETF draft) and `--tus`: the upload's state is saved
/// before its first body byte and as the server confirms parts; running
/// the same command again continues it.
struct ResumableJob: UploadJob {
    let options: UploaderOptions
    let network: any HTTPTransport
    let store: ResumeStore<ResumableUploadState>
    /// The state the last run kept, if any.
    let saved: ResumableUploadState?
    /// The state this run starts from: the kept one, or `--resume-from`'s.
    let state: ResumableUploadState?
    let upload: ResumableSend
    let destination: OutputTarget
    /// `--retry`, or the resumes taken unasked.
    let resumes: Int

    init(options: UploaderOptions, commandLine: CommandLineSplit, network: any HTTPTransport) throws(InputError) {
        self.options = options
        self.network = network
        resumes = options.retry ?? UploaderOptions.defaultResumes
        store = ResumeStore(command: Self.canonicalCommand(commandLine, options: options), directory: options.stateDir)
        do {
            saved = try store.load()
            let (request, invocation) = try ItemRequest.prepare(commandLine, options: options, resumedBoundary: saved?.body.boundary, takesPipedInput: false)
            destination = try OutputTarget(path: options.output, inputPaths: invocation.inputPaths + options.dataPath)
            let chunkSize = options.chunkSize.flatMap(ChunkSize.parse)
            let retry = RetryMiddleware(maximumAttempts: resumes + 1)
            upload = try options.tus
                ? .tus(TusUpload(items: request, invocation: invocation, chunkSize: chunkSize, retry: retry))
                : .draft(ResumableUpload(request, chunkSize: chunkSize, retry: retry))
        } catch let error as InputError {
            throw error
        } catch {
            throw InputError(.invalidRequest, "\(error)")
        }
        let (upload, saved) = (upload, saved)
        state = options.resumeFrom.flatMap(URL.init(string:)).map { url in upload.state(at: url, saved: saved) } ?? saved
    }

    /// What makes two runs "the same command": the method, URL and items in
    /// order, and the options that shape the request. Output, progress,
    /// retries and the state folder may differ between runs.
    private static func canonicalCommand(_ commandLine: CommandLineSplit, options: UploaderOptions) -> String {
        var parts = commandLine.entries.map { entry in
            switch entry {
            case .positional(let text): "p:\(text)"
            case .formPart(let text): "F:\(text)"
            }
        }
        parts += commandLine.headers.map { "H:\($0)" }
        parts += [
            "protocol:\(options.tus ? "tus" : "draft")", "json:\(options.json)", "form:\(options.form)", "multipart:\(options.multipart)",
            "data:\(options.data ?? "")", "boundary:\(options.boundary ?? "")", "chunk:\(options.chunkSize ?? "")",
        ] + CommandCredentials(options).forDigest
        return parts.joined(separator: "\u{0}")
    }

    /// Writes the first request: the creation, or the offset request of a
    /// kept upload.
    func dryRun() async -> ExitStatus {
        do {
            return await DryRunOutput.write(try upload.firstRequest(resumingFrom: state), to: destination)
        } catch {
            Diagnostics.report("\(error)")
            return .badInput
        }
    }

    /// Sends the upload under the state file's lock, saving its state as it
    /// goes.
    func run() async -> ExitStatus {
        // Held until the process ends: one run at a time resumes an upload.
        let lock: ResumeLock
        do {
            lock = try ResumeLock(for: store.file)
        } catch {
            Diagnostics.report(error.description)
            return .badInput
        }
        // A state made from --resume-from is not the one kept: it is saved
        // before anything is sent, as a new upload's is. (A kept one is not
        // saved again before its first byte; see ResumeEngine.send.)
        if let state, state != saved {
            do {
                try store.save(state)
            } catch {
                lock.removeFile()
                Diagnostics.report(StateNotSaved(file: store.file, reason: "\(error)").description)
                return .failure
            }
        }
        let status = await send()
        lock.removeFile()
        return status
    }

    /// Sends the upload and maps the outcome to an exit status.
    private func send() async -> ExitStatus {
        let bar = ProgressBar.asked(options.progress)
        let upload = upload.explainingWaits(bar: bar, retries: resumes, within: options.retryBudget)
        let requestClient = RequestClient(transport: network, middleware: CookieRun.middleware)
        Interruption.shared.watch(bar)
        let store = self.store
        let outcome: ResumableSend.Outcome
        do {
            outcome = try await upload.send(with: requestClient, resumingFrom: state, stateChanged: { state in
                do {
                    try store.save(state)
                } catch {
                    throw StateNotSaved(file: store.file, reason: "\(error)")
                }
            }, progress: { update in
                bar?.update(sent: update.bytesSent, total: update.totalBytes)
            })
            bar?.finish()
        } catch let error as ResumableUploadError {
            bar?.finish()
            switch error.code {
            case .bodyChanged, .uploadNotFound, .protocolMismatch:
                Diagnostics.report("\(error.description); delete \(store.file.path) to start the upload again")
            default:
                Diagnostics.report(error.description)
            }
            switch error.code {
            case .uploadNotFound, .serverNotCapable: return .clientError
            case .invalidResponse: return .networkFailure
            default: return .badInput
            }
        } catch let error as StateNotSaved {
            bar?.finish()
            Diagnostics.report(error.description)
            return .failure
        } catch let error as RequestError {
            bar?.finish()
            Diagnostics.report(error.description)
            if let response = error.response, error.code == .unacceptableStatus {
                return ExitStatus(responseStatus: response.status.code)
            }
            return .networkFailure
        } catch {
            bar?.finish()
            Diagnostics.report("\(error)")
            return .networkFailure
        }
        store.delete()
        let response = outcome.response
        if options.printsFinalHead {
            OutputFile.standardError.writeText(response.head.headText())
        }
        do {
            let output = try destination.open()
            if response.body.isEmpty, let uploadURL = outcome.uploadURL {
                try output.write(Array((uploadURL.absoluteString + "\n").utf8))
            } else {
                try output.write(Array(response.body))
            }
            try output.synchronize()
        } catch {
            return .writeFailed(error)
        }
        return .answering(response.status)
    }
}
