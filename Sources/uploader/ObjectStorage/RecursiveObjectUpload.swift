import HTTPBody
import ObjectStorage
import RequestBuilder
import UploaderItems

/// What `uploader s3://BUCKET/PREFIX/ DIR --recursive` uploads: every regular file under `DIR` to
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
            _ = try ObjectFileUpload.location(base + file.relativePath, filePath: file.path)
        }
    }

    /// The total size of the files, as listed.
    var totalBytes: Int64 { files.reduce(0) { $0 + $1.size } }

    /// One file's upload; its file is opened (and its type sniffed) only now,
    /// when its turn comes.
    func job(_ file: ObjectTree.Entry, options: UploaderOptions) throws(InputError) -> ObjectFileUpload {
        let target = base + file.relativePath
        return try ObjectFileUpload(
            location: ObjectFileUpload.location(target, filePath: file.path), target: target,
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
