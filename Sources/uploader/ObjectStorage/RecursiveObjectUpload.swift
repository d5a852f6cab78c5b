import HTTPBody
import ObjectStorage
import RequestBuilder
import UploaderItems

/// `uploader s3://BUCKET/PREFIX/ DIR --recursive` (contract, "The real
/// network (version 6)", object stores): every regular file under `DIR` to
/// `PREFIX/relative/path`, `--concurrency` files at once through one
/// ``S3Client`` (one connection pool), and `--concurrency` requests (a
/// small file's, a part of a large one) in flight in all.
///
/// Each file is the single upload `uploader s3://BUCKET/PREFIX/relative/path
/// DIR/relative/path` would make, its resume state kept under the same key,
/// so running the command again continues each unfinished multipart upload.
/// The tree and every key are checked before anything is sent; after that,
/// one file's failure is reported and the others go on. The exit status is
/// the worst (highest) of the files', and a summary line ends the run.
struct RecursiveObjectUpload: Sendable {
    /// The `s3://BUCKET/PREFIX/` text the keys are appended to (it ends in `/`).
    let base: String
    let files: [ObjectTree.Entry]
    let settings: ObjectStoreSettings

    init(commandLine: CommandLineSplit, options: UploaderOptions) throws(InputError) {
        let positionals = try ObjectCommandPositionals(commandLine: commandLine, isRecursive: true)
        let root = try positionals.path()
        var base = "s3://" + positionals.target.dropFirst(5)
        if !base.dropFirst(5).contains("/" as Character) || !base.hasSuffix("/") { base += "/" }
        self.base = base
        settings = try ObjectStoreSettings(commandLine: commandLine, options: options, headerItems: positionals.headers)
        files = try ObjectTree(root: root).entries
        // Every key checked now: a bad bucket or a key S3 cannot hold sends nothing.
        for file in files {
            _ = try ObjectUploadJob.location(base + file.relativePath, filePath: file.path)
        }
    }

    /// The total size of the files, as listed.
    var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }

    /// One file's upload; its file is opened (and its type sniffed) only now,
    /// when its turn comes.
    func job(_ file: ObjectTree.Entry, options: UploaderOptions) throws(InputError) -> ObjectUploadJob {
        let target = base + file.relativePath
        return try ObjectUploadJob(
            location: ObjectUploadJob.location(target, filePath: file.path), target: target,
            filePath: file.path, settings: settings, options: options
        )
    }

    /// The summary line, such as `uploaded 998 of 1,000 files (1.20 GiB) to s3://b/p/; 2 failed`.
    static func summary(uploaded: Int, of total: Int, bytes: Int64, to base: String) -> String {
        let size = ProgressBar.formatBytes(bytes)
        guard uploaded < total else {
            return "uploaded \(grouped(total)) \(total == 1 ? "file" : "files") (\(size)) to \(base)"
        }
        return "uploaded \(grouped(uploaded)) of \(grouped(total)) files (\(size)) to \(base); \(grouped(total - uploaded)) failed"
    }

    /// `1,000`: digits in groups of three.
    static func grouped(_ number: Int) -> String {
        let digits = Array(String(number))
        var text = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { text += "," }
            text.append(digit)
        }
        return text
    }
}

/// The bytes and files done of a recursive upload, for its one progress bar.
final class RecursiveProgress: @unchecked Sendable {
    // @unchecked Sendable: updates arrive from the transport's threads and
    // from each file's task; every access goes through `lock`.
    private let lock = ConditionLock()
    private let bar: ProgressBar?
    private let totalFiles: Int
    private let totalBytes: Int64
    private var filesDone = 0
    private var bytesDone: Int64 = 0
    private var inFlight: [Int: Int64] = [:]

    init(bar: ProgressBar?, totalFiles: Int, totalBytes: Int64) {
        (self.bar, self.totalFiles, self.totalBytes) = (bar, totalFiles, totalBytes)
    }

    /// File `index` has `sent` of its bytes held by the store.
    func update(file index: Int, sent: Int64) {
        guard bar != nil else { return }
        lock.lock()
        inFlight[index] = sent
        draw()
        lock.unlock()
    }

    /// File `index` is done with, uploaded or not: its size counts as done.
    func finish(file index: Int, size: Int64) {
        lock.lock()
        inFlight[index] = nil
        filesDone += 1
        bytesDone += size
        draw()
        lock.unlock()
    }

    private func draw() {
        let sent = bytesDone + inFlight.values.reduce(0, +)
        let label = "\(RecursiveObjectUpload.grouped(filesDone))/\(RecursiveObjectUpload.grouped(totalFiles)) files"
        bar?.update(sent: min(sent, totalBytes), total: totalBytes, label: label)
    }
}

extension UploaderOptions {
    /// Runs `uploader s3://BUCKET/PREFIX/ DIR --recursive` (or its dry run:
    /// each file's first request, signed, one after another) and returns the
    /// worst exit status of its files.
    func executeRecursiveObjectStorage(_ commandLine: CommandLineSplit, network: any HTTPTransport) async -> ExitStatus {
        let upload: RecursiveObjectUpload
        do {
            upload = try RecursiveObjectUpload(commandLine: commandLine, options: self)
        } catch {
            report(error.description)
            return .badInput
        }
        let standardError = OutputFile.standardError
        let bar = progress ?? Self.drawsProgressUnasked ? ProgressBar() : nil
        let policy = retryPolicy(retries: retry ?? Self.defaultResumes, bar: bar)
        var client = S3Client(
            endpoint: upload.settings.endpoint, credentials: upload.settings.credentials,
            transport: network, retry: policy
        )
        client.timeout = requestTimeout  // every request of every file
        let width = concurrency ?? 4
        // `--concurrency` requests in flight in all, as boto3's transfer
        // manager sends with its pool of that many threads: files at once,
        // each its parts at once, would be width x width, each part holding
        // its buffers and a connection.
        client.maximumConcurrentRequests = width
        let s3 = client
        if dryRun {
            return await writeDryRun(of: upload, with: s3)
        }
        Interruption.shared.watch(bar)
        // Files are typed one by one as their turn comes, beside the
        // transfers of others: one libmagic handle (6 MB of its database
        // resident while open) rather than one per core.
        MagicDatabase.limitSharedHandles(to: 1)
        let progress = RecursiveProgress(bar: bar, totalFiles: upload.files.count, totalBytes: upload.totalBytes)
        var worst = ExitStatus.success
        var uploaded = 0
        var uploadedBytes: Int64 = 0
        // At most `width` files in flight: one more starts as each ends.
        await forEachConcurrently(Array(upload.files.indices), atMost: width, { (index: Int) async throws(Never) in
            let file = upload.files[index]
            let status = await self.send(file, index: index, of: upload, with: s3, bar: bar, progress: progress)
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
            standardError.writeText("\(summary)\n")
        } else {
            report(summary)
        }
        return worst
    }

    /// One file of the upload; a failure is reported, naming the file, and
    /// becomes its exit status.
    private func send(
        _ file: ObjectTree.Entry, index: Int, of upload: RecursiveObjectUpload, with s3: S3Client,
        bar: ProgressBar?, progress: RecursiveProgress
    ) async -> ExitStatus {
        let job: ObjectUploadJob
        do {
            // Opened and typed in a place of its own among the requests in
            // flight: libmagic's database (6 MB resident while it is open)
            // is then loaded beside 3 transfers' buffers, not 4.
            job = try await s3.transfer { try upload.job(file, options: self) }
        } catch let error as InputError {
            bar?.clear()
            report(error.description)
            return .badInput
        } catch {
            bar?.clear()
            report("'\(file.path.echoed)': \(error)")
            return .failure
        }
        do {
            _ = try await job.send(with: s3) { update in
                progress.update(file: index, sent: update.bytesSent)
            }
            // One write per line: lines of files sent at once never interleave.
            bar?.clear()
            OutputFile.standardOutput.writeText(Self.uploadLine(file: file.path, to: job.location))
            return .success
        } catch {
            bar?.clear()
            return job.report(error, context: "'\(file.path.echoed)': ")
        }
    }

    /// Writes each file's first request, signed, to standard output.
    private func writeDryRun(of upload: RecursiveObjectUpload, with s3: S3Client) async -> ExitStatus {
        var worst = ExitStatus.success
        for file in upload.files {
            let status: ExitStatus
            do {
                let job = try upload.job(file, options: self)
                let first = try await s3.signed(job.firstRequest(with: s3))
                status = await writeDryRun(of: first, to: .standardOutput)
            } catch let error as InputError {
                report(error.description)
                status = .badInput
            } catch {
                report("'\(file.path.echoed)': \(error)")
                status = .badInput
            }
            if status.rawValue > worst.rawValue { worst = status }
        }
        return worst
    }
}
