import AWSSigning
import Foundation
import HTTPBody
import HTTPTypes
import ObjectStorage
import RequestBuilder
import SystemPackage
import UploaderItems

/// One file's upload to one object (`uploader s3://BUCKET/KEY FILE`, or a
/// file of a recursive upload), read and checked: where the
/// object goes, the file, how it is sent, and where a multipart upload's
/// state is kept. Nothing is sent until ``send(with:progress:)``.
struct ObjectFileUpload {
    let location: S3Location
    let filePath: String
    let body: RequestBody
    let headerFields: HTTPFields
    let endpoint: S3Endpoint
    let credentials: AWSCredentials
    /// The multipart upload, when the file is at least the threshold's size.
    let multipart: S3MultipartUpload?
    let store: ResumeStore<S3MultipartUpload.State>

    init(commandLine: CommandLineSplit, options: UploaderOptions) throws(InputError) {
        let positionals = try ObjectCommandPositionals(commandLine: commandLine, isRecursive: false)
        let path = try positionals.path()
        let location = try Self.location(positionals.target, filePath: path)
        try self.init(location: location, target: positionals.target, filePath: path, settings: ObjectStoreSettings(commandLine: commandLine, options: options, headerItems: positionals.headers), options: options)
    }

    /// One file's upload to `location`, with settings read once for every
    /// file of a command. `target` is the `s3://` text the state is keyed
    /// by: a file of a recursive upload resumes under the same state as the
    /// single upload `uploader TARGET FILE` of that file and object.
    init(location: S3Location, target: String, filePath path: String, settings: ObjectStoreSettings, options: UploaderOptions) throws(InputError) {
        filePath = path
        self.location = location
        headerFields = settings.headerFields
        let contentType = headerFields[.contentType].flatMap(MediaType.init)
        do {
            // From argv's bytes: a name that is not UTF-8 is still the file it names.
            body = try RequestBody.file(atPath: FilePath(argument: path), contentType: contentType)
        } catch {
            let hint = FileStatus.isDirectory(atPath: path) == true ? "; add --recursive to upload the files in it" : ""
            throw InputError(.unusableFile, "'\(path.echoed)': \(error.description)\(hint)")
        }
        credentials = settings.credentials
        endpoint = settings.endpoint

        let threshold = options.multipartThreshold.flatMap(ChunkSize.parse) ?? UploaderOptions.defaultPartSize
        let length = body.length ?? 0
        if length >= threshold {
            do {
                var upload = try S3MultipartUpload(
                    body: body, to: location,
                    partSize: options.partSize.flatMap(ChunkSize.parse) ?? UploaderOptions.defaultPartSize,
                    concurrency: options.concurrency ?? 4,
                    headerFields: headerFields
                )
                // A network failure keeps the parts for the next run; a refusal aborts (see report).
                upload.abortsOnFailure = false
                multipart = upload
            } catch {
                throw InputError(.invalidRequest, error.description)
            }
        } else {
            multipart = nil
        }
        let command = ([target, path] + settings.headers.map { "H:\($0)" } + [
            "endpoint:\(endpoint.url.absoluteString)", "region:\(settings.region)", "part:\(multipart?.partSize ?? 0)",
        ]).joined(separator: "\u{0}")
        store = ResumeStore(command: command, directory: options.stateDir)
    }

    /// `s3://BUCKET/KEY`, the file's name appended to a key that is empty or ends in `/`.
    static func location(_ text: String, filePath: String) throws(InputError) -> S3Location {
        var text = text
        if text.lowercased().hasPrefix("s3://") { text = "s3://" + text.dropFirst(5) }
        if !text.dropFirst(5).contains("/" as Character) { text += "/" }
        if text.hasSuffix("/") { text += FilePath(argument: filePath).lastComponent?.string ?? "" }
        do {
            return try S3Location(text)
        } catch {
            throw InputError(.invalidURL, error.description)
        }
    }

    /// The first request the upload sends: the `PUT`, or `CreateMultipartUpload`.
    func firstRequest(with s3: S3Client) async throws -> PreparedRequest {
        if let multipart {
            return try multipart.firstRequest(with: s3)
        }
        return try await s3.putObjectRequest(body, at: location, headerFields: headerFields)
    }

    /// Sends the upload: a `PUT`, or the multipart upload from its saved state.
    func send(with s3: S3Client, progress: @escaping @Sendable (UploadProgress) -> Void) async throws -> Response {
        guard let multipart else {
            return try await s3.putObject(body, at: location, headerFields: headerFields, progress: progress)
        }
        let saved = try store.load()
        let store = self.store
        do {
            let result = try await multipart.send(with: s3, resumingFrom: saved, stateChanged: { state in
                do {
                    try store.save(state)
                } catch {
                    throw StateNotSaved(file: store.file, reason: "\(error)")
                }
            }, progress: progress)
            store.delete()
            return result.response
        } catch let error as S3Error where error.code == .serviceError && error.isRefusal {
            // The store refused: the upload cannot succeed as it is, so its parts go.
            if let state = try? store.load() {
                try? await multipart.abort(state, with: s3)
                store.delete()
            }
            throw error
        } catch let error as S3Error where error.code == .uploadNotFound {
            store.delete()
            throw error
        }
    }

    /// The AWS CLI's line for one object sent: `upload: ./notes.txt to
    /// s3://bucket/notes.txt`, a relative path shown from `./` as it shows it.
    static func uploadLine(file path: String, to location: S3Location) -> String {
        let shown = path.hasPrefix("/") || path.hasPrefix("./") || path.hasPrefix("../") ? path : "./" + path
        return "upload: \(shown.echoed) to \(location.description.echoed)\n"
    }

    /// Reports a failure on standard error, after `context` (a recursive
    /// upload names the file), and returns its exit status.
    func report(_ error: any Error, context: String = "") -> ExitStatus {
        switch error {
        case let error as S3Error:
            switch error.code {
            case .invalidArgument:
                Diagnostics.report(context + error.description)
                return .badInput
            case .bodyChanged:
                Diagnostics.report(context + "\(error.description); delete \(store.file.path) to start the upload again")
                return .badInput
            case .uploadNotFound:
                Diagnostics.report(context + "\(error.description); the next run starts the upload again")
                return .clientError
            case .invalidResponse:
                Diagnostics.report(context + error.description)
                return .networkFailure
            default:
                Diagnostics.report(context + error.description)
                guard let status = error.status else { return .networkFailure }
                // An error inside a 2xx counts as the status S3 would have sent it with.
                guard status.kind == .successful else { return ExitStatus(responseStatus: status.code) }
                return error.isTransient ? .serverError : .clientError
            }
        case let error as InputError:
            Diagnostics.report(context + error.description)
            return .badInput
        case let error as StateNotSaved:
            Diagnostics.report(context + error.description)
            return .failure
        case let error as RequestError where error.code == .body:
            Diagnostics.report(context + error.description)
            return .networkFailure
        default:
            var message = "\(error)"
            if multipart != nil, (try? store.load()) != nil {
                message += "; the parts sent are kept: run the same command again to continue"
            }
            Diagnostics.report(context + message)
            return .networkFailure
        }
    }
}

extension S3Error {
    /// Whether the store refused the upload for good (docs/s3.md): a 4xx, or
    /// an error inside a 2xx that is not worth another attempt (`AccessDenied`).
    var isRefusal: Bool {
        guard let status else { return false }
        return (400..<500).contains(status.code) || (status.kind == .successful && !isTransient)
    }
}
