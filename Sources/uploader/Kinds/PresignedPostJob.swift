import Foundation
import HTTPBody
import ObjectStorage
import RequestBuilder
import SystemPackage
import UploaderItems

/// `uploader --presigned-post FORM.json FILE [name=value ...]` (docs/s3.md):
/// the form's fields, the extra fields, then the file last as `file`, in
/// one POST to the form's URL.
struct PresignedPostJob: UploadJob {
    let exchange: OneRequest

    /// Reads the form and the file and builds the POST.
    init(options: UploaderOptions, commandLine: CommandLineSplit, network: any HTTPTransport) throws(InputError) {
        guard let formPath = options.presignedPost else {
            throw InputError(.conflictingInput, "--presigned-post needs the form's JSON file")
        }
        let (request, filePath) = try Self.request(commandLine, formPath: formPath, timeout: options.requestTimeout)
        // The form is read too: -o naming it would empty it.
        exchange = try OneRequest(request, inputPaths: [filePath, formPath], options: options, network: network)
    }

    func dryRun() async -> ExitStatus { await exchange.dryRun() }

    func run() async -> ExitStatus { await exchange.run() }

    /// The POST the form at `formPath` describes, with the file and extra
    /// fields, and the file's path.
    private static func request(_ commandLine: CommandLineSplit, formPath: String, timeout: Duration?) throws(InputError) -> (PreparedRequest, String) {
        let json: Data
        do throws(RequestBodyError) {
            // Read with HTTPBody's reader, whose errors name the file as a
            // person reads them (Foundation's localizedDescription would link
            // the whole of Foundation on Linux).
            let file = try FileReader(measuring: FileLocation(FilePath(formPath)))
            json = Data(try file.readChunk(maximumLength: Int(clamping: file.expectedLength), as: [UInt8].self) ?? [])
        } catch {
            throw InputError(.unusableFile, "--presigned-post '\(formPath.echoed)' cannot be read: \(error.description)")
        }
        let post: PresignedPost
        do {
            post = try PresignedPost(json: json)
        } catch {
            throw InputError(.invalidRequest, "--presigned-post '\(formPath.echoed)': \(error.description)")
        }
        var filePath: String?
        var extra: [PresignedPost.Field] = []
        // A -F part is refused for this kind by OptionRule.table.
        for case .positional(let text) in commandLine.entries {
            if filePath == nil {
                filePath = text.hasPrefix("@") ? String(text.dropFirst()) : text
                continue
            }
            guard case .field(let name, let value) = try RequestItem(parsing: text) else {
                throw InputError(.malformedItem, "'\(text.echoed)': --presigned-post takes FILE, then name=value fields only")
            }
            extra.append(.init(name: name, value: value))
        }
        guard let filePath, filePath != "-" else {
            throw InputError(.unusableFile, "--presigned-post needs a FILE to upload (standard input cannot be sent: give a file)")
        }
        let builder: HTTPRequestBuilder
        do {
            builder = try post.request(fileAt: URL(filePath: filePath), extraFields: extra)
        } catch {
            throw InputError(.unusableFile, "'\(filePath.echoed)': \(error.description)")
        }
        // The store's answer is written whatever its status, and a refusal
        // exits as any 4xx does.
        var request = builder.acceptingStatus(.any)
        for header in commandLine.headers {
            let (name, value) = try HeaderOption.parse(header)
            request = request.header(name, value)
        }
        if let timeout {
            request = request.timeout(timeout)
        }
        do {
            return (try request.build(), filePath)
        } catch {
            throw InputError(.invalidRequest, error.description)
        }
    }
}
