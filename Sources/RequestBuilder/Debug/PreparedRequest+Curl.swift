import Foundation
import HTTPBody
import HTTPTypes

extension PreparedRequest {
    /// A `curl` command line that sends this request, for debugging and bug reports.
    ///
    /// Every argument is single-quoted for POSIX shells. A body of known length
    /// up to `inlineBodyLimit` bytes that is printable UTF-8 goes inline with
    /// `--data-binary`; any other body is referred to as `--data-binary @bodyFile`
    /// (write it there with ``writeBody(to:)``), so the command never holds a large or
    /// binary body. Header field values are printed as they are: redact tokens
    /// before sharing the command.
    public func curlCommand(bodyFile: String = "body.bin", inlineBodyLimit: Int = 16 * 1024) async -> String {
        var arguments = ["curl"]
        if head.method != .get || body != nil {
            arguments += ["--request", head.method.rawValue]
        }
        arguments.append(url?.absoluteString ?? (head.path ?? "/"))
        // The head as sent, but for the fields curl writes itself, with the
        // same values: Host from the URL, Content-Length from the data.
        for field in head.headerFields where field.name != .contentLength && !(field.name.canonicalName == "host" && field.value == head.authority) {
            arguments += ["--header", "\(field.name.rawName): \(field.value)"]
        }
        if let body {
            if let text = await Self.inlineText(of: body, limit: inlineBodyLimit) {
                arguments += ["--data-binary", text]
            } else {
                arguments += ["--data-binary", "@\(bodyFile)"]
            }
        }
        return arguments.map(ShellQuoting.quote).joined(separator: " ")
    }

    /// The body as text when it is short, known-length, replayable and printable.
    private static func inlineText(of body: RequestBody, limit: Int) async -> String? {
        guard body.isReplayable, let length = body.length, length <= Int64(limit), body.contentEncoding == nil else { return nil }
        guard let bytes = try? await body.collect(upTo: limit) else { return nil }
        guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
        // `@` first would make curl read a file; CR (as in multipart's CRLF) and other
        // control characters would not survive a copy and paste from a terminal.
        guard !text.hasPrefix("@"), !text.unicodeScalars.contains(where: { ($0.value < 0x20 && $0 != "\n" && $0 != "\t") || $0.value == 0x7F }) else {
            return nil
        }
        return text
    }
}

/// Quoting for POSIX shells.
enum ShellQuoting {
    /// `text` as one shell word: bare when it has only safe characters,
    /// otherwise in single quotes with each `'` written as `'\''`.
    static func quote(_ text: String) -> String {
        let safe = !text.isEmpty && text.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "/", ":", "@", "%", "+", "=", ",": true
            default: false
            }
        }
        if safe { return text }
        return "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: "'\\''") + "'"
    }
}
