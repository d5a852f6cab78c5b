import Foundation
import HTTPTypes
import RequestBuilder
import UploaderItems

/// What every kind of upload (plain, resumable, `s3://`, presigned POST)
/// reads from the options and `-H` the same way: one parse each.
extension UploaderOptions {
    /// Whether a progress bar is drawn when neither `--progress` nor
    /// `--no-progress` is given: on a terminal that can take it back
    /// (standard error, and `TERM` not `dumb`).
    static var drawsProgressUnasked: Bool {
        OutputFile.standardError.isTerminal && ProcessInfo.processInfo.environment["TERM"] != "dumb"
    }

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

    /// `-H 'Name: value'`: the name and value, spaces and tabs around them
    /// dropped. A request that goes through the builder checks them there.
    static func header(parsing header: String) throws(InputError) -> (name: String, value: String) {
        guard let colon = header.firstIndex(of: ":") else {
            throw InputError(.malformedItem, "-H '\(header.echoed)': expected 'Name: value'")
        }
        let name = String(header[..<colon].trimmingOptionalWhitespace)
        guard !name.isEmpty else { throw InputError(.malformedItem, "-H '\(header.echoed)': the header name is empty") }
        return (name, String(header[header.index(after: colon)...].trimmingOptionalWhitespace))
    }

    /// The `-H` headers as fields, each name and value checked, for a
    /// request made without the builder (an `s3://` upload's).
    static func headerFields(_ headers: [String]) throws(InputError) -> HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            let (nameText, value) = try Self.header(parsing: header)
            guard let name = HTTPField.Name(nameText) else {
                throw InputError(.malformedItem, "-H '\(header.echoed)': '\(nameText.echoed)' is not a valid header name")
            }
            guard HTTPField.isValidValue(value) else {
                throw InputError(.malformedItem, "-H '\(header.echoed)': the value holds a line break or another forbidden character")
            }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }
}
