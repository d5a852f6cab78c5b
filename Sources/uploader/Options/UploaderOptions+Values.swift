import UploaderItems

/// The options' values as the kinds of upload use them, each read one way,
/// and the defaults of the options that have one.
extension UploaderOptions {
    /// `--max-redirects`' default, as curl's.
    static let defaultMaximumRedirects = 30
    /// The most `--max-redirects` allows: past that a chain is a loop.
    static let maximumRedirectsLimit = 100
    /// `--retry`'s default for the uploads that resume (resumable, `s3://`):
    /// they exist to survive failures, so they resume a few times unasked.
    static let defaultResumes = 5
    /// The default `--part-size` and `--multipart-threshold`: 8 MiB, as the AWS CLI's.
    static let defaultPartSize: Int64 = 8 * 1024 * 1024

    /// `--timeout` as the duration every request of the command is bounded
    /// by, exact to the nanosecond (0.0001 s stays 0.0001 s); ``validate()``
    /// keeps the value within 1,000,000 s, so this cannot overflow.
    var requestTimeout: Duration? {
        timeout.map { .nanoseconds(Int64(($0 * 1e9).rounded())) }
    }

    /// `--retry-max-time` as the retry policies' total time.
    var retryBudget: Duration? {
        retryMaxTime.map { .nanoseconds(Int64(($0 * 1e9).rounded())) }
    }

    /// The file `--data @path` reads, if any.
    var dataPath: [String] {
        guard let data, data.hasPrefix("@") else { return [] }
        return [String(data.dropFirst())]
    }

    /// The body kind `--json`, `--form` or `--multipart` asks for, if any;
    /// ``validate()`` has made sure there is at most one.
    var explicitBodyKind: RequestAssembler.BodyKind? {
        if json { return .json }
        if form { return .form }
        return multipart ? .multipart : nil
    }

    /// Whether the final response's head is printed after the exchange:
    /// `-v` has printed every head as it came, so only
    /// `--print-response-headers` asks for it then.
    var printsFinalHead: Bool { printResponseHeaders && !verbose }
}
