import Foundation
import HTTPBody
import ObjectStorage
import RequestBuilder
import SystemPackage
import UploaderItems

/// `uploader --presigned-post FORM.json FILE [name=value ...]` (docs/s3.md):
/// the form's fields, the extra fields, then the file last as `file`.
extension UploaderOptions {
    /// Reads the form and the file, then sends (or, with `--dry-run`, writes) the form.
    func executePresignedPost(_ commandLine: CommandLineSplit, network: any HTTPTransport) async -> ExitStatus {
        await run(network: network) { () throws(InputError) in
            let (request, filePath) = try presignedPostRequest(commandLine)
            // The form is read too: -o naming it would empty it.
            return (request, [filePath] + (presignedPost.map { [$0] } ?? []))
        }
    }

    /// The POST the form describes, with the file and extra fields.
    private func presignedPostRequest(_ commandLine: CommandLineSplit) throws(InputError) -> (PreparedRequest, String) {
        guard let formPath = presignedPost else {
            throw InputError(.conflictingInput, "--presigned-post needs the form's JSON file")
        }
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
        // exits as any 4xx does (contract, "Output and exit status").
        var request = builder.acceptingStatus(.any)
        for header in commandLine.headers {
            let (name, value) = try Self.header(parsing: header)
            request = request.header(name, value)
        }
        if let requestTimeout {
            request = request.timeout(requestTimeout)
        }
        do {
            return (try request.build(), filePath)
        } catch {
            throw InputError(.invalidRequest, error.description)
        }
    }
}
