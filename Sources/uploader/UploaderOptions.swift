import ArgumentParser
import HTTPBody
import UploaderItems

/// What the command line's options ask for, as plain values: what
/// ``Uploader`` parses them into, and what the command runs with. Each
/// property is the option of the same name (`dryRun` is `--dry-run`).
struct UploaderOptions: Equatable, Sendable {
    var multipart: Bool
    var form: Bool
    var json: Bool
    var data: String?
    var gzip: Bool
    var boundary: String?
    var dryRun: Bool
    var output: String?
    var timeout: Double?
    var retry: Int?
    var resumable: Bool
    var tus: Bool
    var chunkSize: String?
    var resumeFrom: String?
    var stateDir: String?
    var endpointURL: String?
    var region: String?
    var partSize: String?
    var concurrency: Int?
    var multipartThreshold: String?
    var presignedPost: String?
    /// `--progress` or `--no-progress`; `nil` when neither was given.
    var progress: Bool?
    var verbose: Bool
    var printResponseHeaders: Bool

    /// No option given: what ``Uploader``'s declarations default to.
    static let defaults = UploaderOptions(
        multipart: false, form: false, json: false, data: nil, gzip: false, boundary: nil,
        dryRun: false, output: nil, timeout: nil, retry: nil,
        resumable: false, tus: false, chunkSize: nil, resumeFrom: nil, stateDir: nil,
        endpointURL: nil, region: nil, partSize: nil, concurrency: nil, multipartThreshold: nil, presignedPost: nil,
        progress: nil, verbose: false, printResponseHeaders: false
    )

    /// The largest `--timeout`, in seconds (about 11.6 days): past it NIO's
    /// clock would overflow, and no upload waits that long for an answer.
    static let maximumTimeout = 1_000_000.0
    /// The most `--retry` allows: a script's typo, not a policy, past that.
    static let maximumRetries = 100

    /// Checks the options' ranges and combinations before anything else
    /// runs (contract, "Edges (version 2)": numbers; `--boundary` whatever
    /// the body).
    func validate() throws {
        let kinds = [(json, "--json"), (form, "--form"), (multipart, "--multipart")].filter(\.0).map(\.1)
        guard kinds.count <= 1 else {
            throw ValidationError("\(kinds.joined(separator: " and ")) contradict each other; choose one body kind")
        }
        if data != nil, !kinds.isEmpty {
            throw ValidationError("--data sends a raw body; drop --json, --form or --multipart")
        }
        if let retry, !(0...Self.maximumRetries).contains(retry) {
            throw ValidationError("--retry \(retry): the retry count must be a whole number from 0 to \(Self.maximumRetries)")
        }
        try validateResumable()
        try validateObjectStorage()
        if let timeout, !(timeout > 0 && timeout <= Self.maximumTimeout) {
            throw ValidationError("--timeout \(timeout): the timeout must be a positive number of seconds, at most \(Int(Self.maximumTimeout))")
        }
        if let boundary {
            do {
                _ = try MultipartBoundary.constant(boundary)
            } catch {
                throw ValidationError("--boundary: \(error.description.echoed)")
            }
        }
    }

    /// The body kind `--json`, `--form` or `--multipart` asks for, if any;
    /// ``validate()`` has made sure there is at most one.
    var explicitBodyKind: RequestAssembler.BodyKind? {
        if json { return .json }
        if form { return .form }
        return multipart ? .multipart : nil
    }
}
