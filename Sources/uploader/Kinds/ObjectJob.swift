import HTTPBody
import ObjectStorage
import RequestBuilder
import UploaderItems

/// `uploader s3://BUCKET/KEY FILE` (docs/s3.md): one file to one object, in
/// one signed `PUT` below the multipart threshold, else as a parallel
/// multipart upload whose state is saved so the same command resumes it.
struct ObjectJob: UploadJob {
    let options: UploaderOptions
    let upload: ObjectFileUpload
    let destination: OutputTarget
    let bar: ProgressBar?
    let s3: S3Client

    init(options: UploaderOptions, commandLine: CommandLineSplit, network: any HTTPTransport) throws(InputError) {
        self.options = options
        upload = try ObjectFileUpload(commandLine: commandLine, options: options)
        destination = try OutputTarget(path: options.output, inputPaths: [upload.filePath])
        bar = ProgressBar.asked(options.progress)
        var s3 = S3Client(
            endpoint: upload.endpoint, credentials: upload.credentials, transport: network,
            retry: .command(retries: options.retry ?? UploaderOptions.defaultResumes, within: options.retryBudget, bar: bar)
        )
        s3.timeout = options.requestTimeout  // every request of the upload
        self.s3 = s3
    }

    /// Writes the first request, signed.
    func dryRun() async -> ExitStatus {
        do {
            let first = try await s3.signed(upload.firstRequest(with: s3))
            return await DryRunOutput.write(first, to: destination)
        } catch {
            Diagnostics.report("\(error)")
            return .badInput
        }
    }

    /// Sends the upload, then writes the AWS CLI's line (and, to `-o`, the
    /// store's answer).
    func run() async -> ExitStatus {
        Interruption.shared.watch(bar)
        let response: Response
        do {
            response = try await upload.send(with: s3) { update in
                bar?.update(sent: update.bytesSent, total: update.totalBytes)
            }
            bar?.finish()
        } catch {
            bar?.finish()
            return upload.report(error)
        }
        if options.printsFinalHead {
            OutputFile.standardError.writeText(response.head.headText())
        }
        // The store's answer (CompleteMultipartUploadResult, or nothing for
        // a PUT) is for -o and -v; standard output gets the AWS CLI's line.
        if options.verbose, !response.body.isEmpty {
            OutputFile.standardError.writeText(String(decoding: response.body, as: UTF8.self).escapedForMessage + "\n")
        }
        do {
            if options.output != nil {
                let file = try destination.open()
                try file.write(Array(response.body))
                try file.synchronize()
            }
            try OutputFile.standardOutput.write(Array(ObjectFileUpload.uploadLine(file: upload.filePath, to: upload.location).utf8))
        } catch {
            return .writeFailed(error)
        }
        return .success
    }
}
