import AWSSigning
import ArgumentParser
import AsyncHTTPClient
import Foundation
import HTTPBody
import HTTPTypes
import ObjectStorage
import RequestBuilder
import RequestBuilderAsyncHTTPClient
import UploaderItems

/// `uploader s3://BUCKET/KEY FILE` (docs/s3.md): one file to one object, in
/// one signed `PUT` below the multipart threshold, else as a parallel
/// multipart upload whose state is saved so the same command resumes it.
extension UploaderOptions {
    /// The default `--part-size` and `--multipart-threshold`: 8 MiB, as the AWS CLI's.
    static let defaultPartSize: Int64 = 8 * 1024 * 1024

    /// Checks the object-store options' values (the parser's `validate()`).
    func validateObjectStorage() throws {
        for (text, option) in [(partSize, "--part-size"), (multipartThreshold, "--multipart-threshold")] {
            if let text, ChunkSize.parse(text) == nil {
                throw ValidationError("\(option) \(text): give a positive number of bytes, with K, M or G if wanted (such as 8M)")
            }
        }
        if let partSize, let bytes = ChunkSize.parse(partSize), !(S3MultipartUpload.minimumPartSize...S3MultipartUpload.maximumPartSize).contains(bytes) {
            throw ValidationError("--part-size \(partSize): S3 takes parts of 5M to 5G")
        }
        if let concurrency, !(1...64).contains(concurrency) {
            throw ValidationError("--concurrency \(concurrency): give a whole number of parts from 1 to 64")
        }
        if let endpointURL, URL(string: endpointURL).map({ ($0.scheme == "http" || $0.scheme == "https") && $0.host?.isEmpty == false }) != true {
            throw ValidationError("--endpoint-url \(TargetURL.masked(endpointURL)): give the store's http or https URL, such as http://127.0.0.1:9000")
        }
        if let endpointURL, let url = URL(string: endpointURL), url.user != nil || url.password != nil {
            throw ValidationError("--endpoint-url \(TargetURL.masked(endpointURL)): the store's URL cannot carry a user name or password; requests are signed with the AWS credentials of the environment")
        }
        if let region, region.isEmpty || !region.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }) {
            throw ValidationError("--region \(region): a region is letters, digits and dashes, such as eu-west-1")
        }
    }

    /// Runs an `s3://` upload (or its dry run) and returns the exit status.
    func executeObjectStorage(_ commandLine: CommandLineSplit, network: any HTTPTransport) async -> ExitStatus {
        let job: ObjectUploadJob
        let destination: OutputTarget
        do {
            job = try ObjectUploadJob(commandLine: commandLine, options: self)
            destination = try OutputTarget(path: output, inputPaths: [job.filePath])
        } catch {
            report(error.description)
            return .badInput
        }
        let bar = progress ?? Self.drawsProgressUnasked ? ProgressBar() : nil
        let retries = retry ?? Self.defaultResumes
        let policy = retryPolicy(retries: retries, bar: bar)
        var s3 = S3Client(
            endpoint: job.endpoint, credentials: job.credentials,
            transport: network, retry: policy
        )
        s3.timeout = requestTimeout  // every request of the upload
        let status: ExitStatus
        if dryRun {
            status = await writeDryRun(of: job, with: s3, to: destination)
        } else {
            Interruption.shared.watch(bar)
            status = await send(job, with: s3, bar: bar, to: destination)
        }
        return status
    }

    /// Writes the first request, signed.
    private func writeDryRun(of job: ObjectUploadJob, with s3: S3Client, to destination: OutputTarget) async -> ExitStatus {
        do {
            let first = try await s3.signed(job.firstRequest(with: s3))
            return await writeDryRun(of: first, to: destination)
        } catch {
            report("\(error)")
            return .badInput
        }
    }

    /// Sends the upload and maps its outcome to an exit status.
    private func send(_ job: ObjectUploadJob, with s3: S3Client, bar: ProgressBar?, to destination: OutputTarget) async -> ExitStatus {
        let response: Response
        do {
            response = try await job.send(with: s3) { update in
                bar?.update(sent: update.bytesSent, total: update.totalBytes)
            }
            bar?.finish()
        } catch {
            bar?.finish()
            return job.report(error)
        }
        if printsFinalHead {
            OutputFile.standardError.writeText(Self.describeHead(of: response.head))
        }
        // The store's answer (CompleteMultipartUploadResult, or nothing for
        // a PUT) is for -o and -v; standard output gets the AWS CLI's line.
        if verbose, !response.body.isEmpty {
            OutputFile.standardError.writeText(String(decoding: response.body, as: UTF8.self).escapedForMessage + "\n")
        }
        do {
            if output != nil {
                let file = try destination.open()
                try file.write(Array(response.body))
                try file.synchronize()
            }
            try OutputFile.standardOutput.write(Array(Self.uploadLine(file: job.filePath, to: job.location).utf8))
        } catch {
            return reportUnlessReaderLeft(error)
        }
        return .success
    }

    /// The AWS CLI's line for one object sent: `upload: ./notes.txt to
    /// s3://bucket/notes.txt`, a relative path shown from `./` as it shows it.
    static func uploadLine(file path: String, to location: S3Location) -> String {
        let shown = path.hasPrefix("/") || path.hasPrefix("./") || path.hasPrefix("../") ? path : "./" + path
        return "upload: \(shown.echoed) to \(location.description.echoed)\n"
    }
}
