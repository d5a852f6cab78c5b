import Foundation
import HTTPTypes
import UploaderItems

/// What the command line asks for, before anything is encoded: the method,
/// the URL and the request items in the order they were typed.
struct Invocation {
    /// The explicit method, if one was given.
    var method: HTTPRequest.Method?
    /// The target URL, scheme included.
    var url: URL
    /// Items and `-F` parts in command-line order, then the `-H` headers.
    var items: [RequestItem]

    /// The methods the contract accepts before the URL, in any case.
    private static let methods: Set<String> = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// Interprets the positional arguments and options of a parsed command.
    init(positionals: [String], formParts: [String], headers: [String], rawArguments: [String]) throws(InputError) {
        var positionals = positionals
        if positionals.count >= 2, Self.methods.contains(positionals[0].uppercased()) {
            method = HTTPRequest.Method(positionals[0].uppercased())
            positionals.removeFirst()
        }
        guard let urlText = positionals.first else {
            throw InputError("no URL given; usage: uploader [METHOD] URL [ITEM ...] [OPTIONS]")
        }
        url = try TargetURL.parse(urlText)

        // Interleave items and -F parts as typed; fall back to items first if
        // the raw scan disagrees with the parser (it should not).
        let entries = ArgumentOrder.entries(in: rawArguments)
        let scannedPositionals = entries.compactMap { entry -> String? in
            if case .positional(let text) = entry { return text } else { return nil }
        }
        let scannedParts = entries.compactMap { entry -> String? in
            if case .formPart(let text) = entry { return text } else { return nil }
        }
        let ordered: [ArgumentOrder.Entry]
        if scannedParts == formParts, scannedPositionals.suffix(positionals.count - 1) == positionals.dropFirst() {
            let itemCount = positionals.count - 1
            var skip = scannedPositionals.count - itemCount  // the method and the URL
            ordered = entries.filter { entry in
                guard case .positional = entry, skip > 0 else { return true }
                skip -= 1
                return false
            }
        } else {
            ordered = positionals.dropFirst().map { .positional($0) } + formParts.map { .formPart($0) }
        }

        items = []
        for entry in ordered {
            switch entry {
            case .positional(let text): items.append(try RequestItem(parsing: text))
            case .formPart(let text): items.append(try RequestItem(parsingFormPart: text))
            }
        }
        for header in headers {
            guard let colon = header.firstIndex(of: ":") else {
                throw InputError("-H '\(header)': expected 'Name: value'")
            }
            let name = String(header[..<colon]).trimmingSpaces
            guard !name.isEmpty else { throw InputError("-H '\(header)': the header name is empty") }
            items.append(.header(name: name, value: String(header[header.index(after: colon)...]).trimmingSpaces))
        }
    }
}

extension Invocation {
    /// The files the request reads (standard input aside), for checks that
    /// must not touch them, such as `-o` naming one of them.
    var inputPaths: [String] {
        items.compactMap { item in
            guard case .file(_, let source) = item, !source.isStandardInput else { return nil }
            return source.path
        }
    }
}
