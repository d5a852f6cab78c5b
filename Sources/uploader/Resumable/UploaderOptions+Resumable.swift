import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import ResumableUploads
import SystemPackage
import UploaderItems

/// `--resumable` and `--tus` (contract, "Resumable uploads (version 3)"):
/// the upload's state is saved before its first body byte and as the server
/// confirms parts; running the same command again continues it.
extension UploaderOptions {
    /// The resumable upload protocols' defaults for `--retry`: a resumable
    /// upload exists to survive failures, so it resumes a few times unasked.
    static let defaultResumes = 5

    /// Checks the resumable options' values (which kinds take them is
    /// ``OptionRule/table``'s to say).
    func validateResumable() throws {
        if let chunkSize, ChunkSize.parse(chunkSize) == nil {
            throw ValidationError("--chunk-size \(chunkSize): give a positive number of bytes, with K, M or G if wanted (such as 8M), at most 1024G")
        }
        if let resumeFrom, URL(string: resumeFrom).map({ $0.scheme == "http" || $0.scheme == "https" }) != true {
            throw ValidationError("--resume-from \(TargetURL.masked(resumeFrom)): give the upload's http or https URL")
        }
        if let resumeFrom, let url = URL(string: resumeFrom), url.user != nil || url.password != nil {
            throw ValidationError("--resume-from \(TargetURL.masked(resumeFrom)): the upload URL cannot carry a user name or password; give them in the URL argument (http://user:pass@host/...)")
        }
    }

    /// Runs a resumable upload (or its dry run) and returns the exit status.
    func executeResumable(_ commandLine: CommandLineSplit, network: any HTTPTransport) async -> ExitStatus {
        let store = ResumeStore<ResumableUploadState>(command: canonicalCommand(commandLine), directory: stateDir)
        let saved: ResumableUploadState?
        let upload: ResumableSend
        let destination: OutputTarget
        do {
            saved = try store.load()
            let (request, invocation) = try prepareRequest(commandLine, resumedBoundary: saved?.body.boundary, takesPipedInput: false)
            destination = try OutputTarget(path: output, inputPaths: invocation.inputPaths + dataPath)
            upload = try tus ? .tus(tusUpload(for: request, invocation: invocation)) : .draft(draftUpload(for: request))
        } catch let error as InputError {
            report(error.description)
            return .badInput
        } catch {
            report("\(error)")
            return .badInput
        }
        let state = resumeFrom.flatMap(URL.init(string:)).map { url in
            upload.state(at: url, saved: saved)
        } ?? saved

        if dryRun {
            do {
                return await writeDryRun(of: try upload.firstRequest(resumingFrom: state), to: destination)
            } catch {
                report("\(error)")
                return .badInput
            }
        }
        // Held until the process ends: one run at a time resumes an upload.
        let lock: ResumeLock
        do {
            lock = try ResumeLock(for: store.file)
        } catch {
            report(error.description)
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
                report(StateNotSaved(file: store.file, reason: "\(error)").description)
                return .failure
            }
        }
        let status = await send(upload, resumingFrom: state, store: store, to: destination, with: network)
        lock.removeFile()
        return status
    }

    /// What makes two runs "the same command": the method, URL and items in
    /// order, and the options that shape the request. Output, progress,
    /// retries and the state folder may differ between runs.
    private func canonicalCommand(_ commandLine: CommandLineSplit) -> String {
        var parts = commandLine.entries.map { entry in
            switch entry {
            case .positional(let text): "p:\(text)"
            case .formPart(let text): "F:\(text)"
            }
        }
        parts += commandLine.headers.map { "H:\($0)" }
        parts += [
            "protocol:\(tus ? "tus" : "draft")", "json:\(json)", "form:\(form)", "multipart:\(multipart)",
            "data:\(data ?? "")", "boundary:\(boundary ?? "")", "chunk:\(chunkSize ?? "")",
        ] + credentialsForDigest
        return parts.joined(separator: "\u{0}")
    }

    private var chunkBytes: Int64? { chunkSize.flatMap(ChunkSize.parse) }

    private var resumes: Int { retry ?? Self.defaultResumes }

    private func draftUpload(for request: PreparedRequest) throws -> ResumableUpload {
        try ResumableUpload(request, chunkSize: chunkBytes, retry: RetryMiddleware(maximumAttempts: resumes + 1))
    }

    /// The tus upload of the one file item: its type and filename, the text
    /// fields as metadata, the headers and query items as given.
    private func tusUpload(for request: PreparedRequest, invocation: Invocation) throws -> TusUpload {
        var file: (name: String, source: RequestItem.FileSource)?
        var metadata: [(key: String, value: String)] = []
        for item in invocation.items {
            switch item {
            case .file(let name, let source):
                guard file == nil else {
                    throw InputError(.conflictingInput, "--tus uploads exactly one file; '\(name.echoed)@\(source.path.echoed)' is a second")
                }
                guard !source.isStandardInput else {
                    throw InputError(.conflictingInput, "'\(name.echoed)@-': --tus cannot resume standard input; give a file")
                }
                file = (name, source)
            case .field(let name, let value), .textPart(let name, let value, _, _):
                metadata.append((name, value))
            case .rawJSON(let name, _):
                throw InputError(.conflictingInput, "'\(name.echoed):=…': --tus sends text fields as Upload-Metadata; raw JSON has no place there")
            case .header, .query, .fromFile:  // .fromFile: never here, Invocation reads it
                continue
            }
        }
        guard let file else {
            throw InputError(.conflictingInput, "--tus uploads one file item (name@path); none was given")
        }
        // The path as the argument's bytes: a name that is not UTF-8 is
        // found as it is, as for a multipart part (a String path would not).
        let path = FilePath(argument: file.source.path)
        let body = try RequestBody.file(atPath: path, contentType: file.source.type.flatMap(MediaType.init))
        let filename = file.source.filename ?? path.lastComponent?.string ?? ""
        let fileFields = [("filename", filename), ("filetype", body.contentType?.description ?? "application/octet-stream")]
        metadata.removeAll { pair in fileFields.contains { $0.0 == pair.key } }
        guard let url = request.url else {
            throw InputError(.invalidURL, "the tus creation URL cannot be read back from the request")
        }
        // The items' headers as sent; not what described the multipart body
        // the request was assembled with, nor the Host line (from the URL).
        var fields = HTTPFields()
        let described: Set<String> = ["host", "content-type", "content-length", "content-encoding", "transfer-encoding"]
        for field in request.head.headerFields where !described.contains(field.name.canonicalName) {
            fields.append(field)
        }
        var upload = try TusUpload(
            creationURL: url, body: body, metadata: fileFields.map { (key: $0.0, value: $0.1) } + metadata,
            headerFields: fields, chunkSize: chunkBytes ?? 8 * 1024 * 1024,
            retry: RetryMiddleware(maximumAttempts: resumes + 1)
        )
        upload.timeout = request.timeout
        return upload
    }

    /// Sends the upload, saving its state as it goes, and maps the outcome to
    /// an exit status.
    private func send(_ upload: ResumableSend, resumingFrom state: ResumableUploadState?, store: ResumeStore<ResumableUploadState>, to target: OutputTarget, with network: any HTTPTransport) async -> ExitStatus {
        let standardError = OutputFile.standardError
        let bar = progress ?? Self.drawsProgressUnasked ? ProgressBar() : nil
        let upload = upload.explainingWaits(bar: bar, retries: resumes, within: retryBudget)
        let requestClient = RequestClient(transport: network, middleware: CookieRun.middleware)
        Interruption.shared.watch(bar)
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
                report("\(error.description); delete \(store.file.path) to start the upload again")
            default:
                report(error.description)
            }
            switch error.code {
            case .uploadNotFound, .serverNotCapable: return .clientError
            case .invalidResponse: return .networkFailure
            default: return .badInput
            }
        } catch let error as StateNotSaved {
            bar?.finish()
            report(error.description)
            return .failure
        } catch let error as RequestError {
            bar?.finish()
            report(error.description)
            if let response = error.response, error.code == .unacceptableStatus {
                return ExitStatus(responseStatus: response.status.code)
            }
            return .networkFailure
        } catch {
            bar?.finish()
            report("\(error)")
            return .networkFailure
        }
        store.delete()
        let response = outcome.response
        if printsFinalHead {
            standardError.writeText(Self.describeHead(of: response.head))
        }
        do {
            let destination = try target.open()
            if response.body.isEmpty, let uploadURL = outcome.uploadURL {
                try destination.write(Array((uploadURL.absoluteString + "\n").utf8))
            } else {
                try destination.write(Array(response.body))
            }
            try destination.synchronize()
        } catch {
            return reportUnlessReaderLeft(error)
        }
        return exitStatus(answering: response.status)
    }
}
