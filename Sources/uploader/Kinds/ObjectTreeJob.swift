import HTTPBody
import ObjectStorage
import RequestBuilder
import UploaderItems

/// `uploader s3://BUCKET/PREFIX/ DIR --recursive`: every file under `DIR`
/// (``RecursiveObjectUpload``), each the single upload of its file, at most
/// `--concurrency` requests in flight in all; the exit status is the worst
/// of the files'.
struct ObjectTreeJob: UploadJob, Sendable {
    let options: UploaderOptions
    let upload: RecursiveObjectUpload
    let bar: ProgressBar?
    let s3: S3Client
    /// Files at once, and requests in flight in all.
    let width: Int

    init(options: UploaderOptions, commandLine: CommandLineSplit, network: any HTTPTransport) throws(InputError) {
        self.options = options
        upload = try RecursiveObjectUpload(commandLine: commandLine, options: options)
        bar = ProgressBar.asked(options.progress)
        var client = S3Client(
            endpoint: upload.settings.endpoint, credentials: upload.settings.credentials, transport: network,
            retry: .command(retries: options.retry ?? UploaderOptions.defaultResumes, within: options.retryBudget, bar: bar)
        )
        client.timeout = options.requestTimeout  // every request of every file
        width = options.concurrency ?? 4
        // `--concurrency` requests in flight in all, as boto3's transfer
        // manager sends with its pool of that many threads: files at once,
        // each its parts at once, would be width x width, each part holding
        // its buffers and a connection.
        client.maximumConcurrentRequests = width
        s3 = client
    }

    /// Writes each file's first request, signed, to standard output, one
    /// after another.
    func dryRun() async -> ExitStatus {
        var worst = ExitStatus.success
        for file in upload.files {
            let status: ExitStatus
            do {
                let job = try upload.job(file, options: options)
                let first = try await s3.signed(job.firstRequest(with: s3))
                status = await DryRunOutput.write(first, to: .standardOutput)
            } catch let error as InputError {
                Diagnostics.report(error.description)
                status = .badInput
            } catch {
                Diagnostics.report("'\(file.path.echoed)': \(error)")
                status = .badInput
            }
            if status.rawValue > worst.rawValue { worst = status }
        }
        return worst
    }

    /// Sends every file, a line each on standard output, then the summary
    /// line on standard error.
    func run() async -> ExitStatus {
        Interruption.shared.watch(bar)
        // Files are typed one by one as their turn comes, beside the
        // transfers of others: one libmagic handle (its database resident
        // while open) rather than one per core.
        MagicDatabase.limitSharedHandles(to: 1)
        let progress = RecursiveProgress(bar: bar, totalFiles: upload.files.count, totalBytes: upload.totalBytes)
        var worst = ExitStatus.success
        var uploaded = 0
        var uploadedBytes: Int64 = 0
        // At most `width` files in flight: one more starts as each ends.
        await forEachConcurrently(Array(upload.files.indices), atMost: width, { (index: Int) async throws(Never) in
            let file = upload.files[index]
            let status = await self.send(file, index: index, progress: progress)
            progress.finish(file: index, size: file.size)
            return (index: index, status: status)
        }, collect: { (done: (index: Int, status: ExitStatus)) in
            if done.status == .success {
                uploaded += 1
                uploadedBytes += upload.files[done.index].size
            } else if done.status.rawValue > worst.rawValue {
                worst = done.status
            }
        })
        bar?.finish()
        let summary = RecursiveObjectUpload.summary(uploaded: uploaded, of: upload.files.count, bytes: uploadedBytes, to: upload.base)
        if worst == .success {
            OutputFile.standardError.writeText("\(summary)\n")
        } else {
            Diagnostics.report(summary)
        }
        return worst
    }

    /// One file of the upload; a failure is reported, naming the file, and
    /// becomes its exit status.
    private func send(_ file: ObjectTree.Entry, index: Int, progress: RecursiveProgress) async -> ExitStatus {
        let job: ObjectFileUpload
        do {
            // Opened and typed in a place of its own among the requests in
            // flight: libmagic's database is then loaded beside one fewer
            // transfer's buffers.
            job = try await s3.transfer { try upload.job(file, options: options) }
        } catch let error as InputError {
            bar?.clear()
            Diagnostics.report(error.description)
            return .badInput
        } catch {
            bar?.clear()
            Diagnostics.report("'\(file.path.echoed)': \(error)")
            return .failure
        }
        do {
            _ = try await job.send(with: s3) { update in
                progress.update(file: index, sent: update.bytesSent)
            }
            // One write per line: lines of files sent at once never interleave.
            bar?.clear()
            OutputFile.standardOutput.writeText(ObjectFileUpload.uploadLine(file: file.path, to: job.location))
            return .success
        } catch {
            bar?.clear()
            return job.report(error, context: "'\(file.path.echoed)': ")
        }
    }
}
