import Foundation
import HTTPTypes
import UploaderItems

/// What the command line asks for, before anything is encoded: the method,
/// the URL and the request items in the order they were typed.
struct Invocation {
    /// The explicit method, if one was given.
    var method: HTTPRequest.Method?
    /// The target URL, scheme included, without userinfo.
    var url: URL
    /// `user:password` from the URL's userinfo, sent as `Authorization: Basic`.
    var credentials: String?
    /// Items and `-F` parts in command-line order, then the `-H` headers.
    var items: [RequestItem]
    /// Whether any `-F` part was given, which makes the body multipart as in curl.
    var hasFormParts: Bool
    /// The item as typed (`meta:=@t.json`), by its index in ``items``, for
    /// items whose value was read from a file: messages name the file, not
    /// its content.
    var typedItems: [Int: String] = [:]
    /// The files items took their values from (`name=@path`), each read once.
    var valueFiles: [String] = []

    /// The methods the contract accepts before the URL, in any case. (An
    /// array: seven names need no hashing, and a `Set` costs its first use a
    /// search of every protocol conformance in the binary.)
    private static let methods = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]

    /// Interprets the command line: the method and URL, then the items and
    /// `-F` parts in typed order, then the `-H` headers.
    init(_ commandLine: CommandLineSplit) throws(InputError) {
        let (method, urlText) = try Self.methodAndURL(in: commandLine.entries)
        if urlText.hasPrefix("{") || urlText.hasPrefix("[") {
            // curl's --json DATA: here --json is HTTPie's flag, and DATA took the URL's place.
            throw InputError(.invalidURL, "'\(urlText.echoed)' is not a URL: to send JSON text as the body, give it with --data (curl's --json DATA); --json here sends name=value fields as JSON")
        }
        let target = try TargetURL.parse(urlText)
        self.method = method
        url = target.url
        credentials = target.credentials
        items = []
        hasFormParts = commandLine.entries.contains { if case .formPart = $0 { true } else { false } }
        try readItems(of: commandLine.entries, skippingPositionals: method == nil ? 1 : 2)
        for header in commandLine.headers {
            let (name, value) = try HeaderOption.parse(header)
            items.append(.header(name: name, value: value))
        }
    }

    /// The explicit method, if the first positional is one and a URL
    /// follows, and the URL's text.
    private static func methodAndURL(in entries: [CommandLineSplit.Entry]) throws(InputError) -> (HTTPRequest.Method?, String) {
        var first: String?
        var second: String?
        for case .positional(let text) in entries {
            if first == nil { first = text } else { second = text; break }
        }
        if let first, let second, Self.methods.contains(first.uppercased()) {
            return (HTTPRequest.Method(first.uppercased()), second)
        }
        // HTTPie takes a first word of letters before a URL as the method;
        // here only the seven above are sent, so say that, rather than
        // calling the URL that follows a second one.
        if let first, let second, first.allSatisfy({ $0.isASCII && $0.isLetter }), looksLikeURL(second) {
            throw InputError(.invalidURL, "'\(first.echoed)' is not a known method; give GET, POST, PUT, PATCH, DELETE, HEAD or OPTIONS, then the URL")
        }
        guard let first else {
            // HTTPie's -F (follow) before the URL: here -F takes a form part.
            for case .formPart(let text) in entries where !text.contains("=" as Character) {
                throw InputError(.invalidURL, "no URL given: -F took '\(TargetURL.masked(text).echoed)' as a form part (name=value); HTTPie's -F, follow redirects, is -L here")
            }
            throw InputError(.invalidURL, "no URL given; usage: uploader [METHOD] URL [ITEM ...] [OPTIONS]")
        }
        return (nil, first)
    }

    /// The items and `-F` parts in typed order, after the method and URL;
    /// an item whose value comes from a file (`name=@path`) is read now
    /// (``ItemFiles``), before anything is built.
    private mutating func readItems(of entries: [CommandLineSplit.Entry], skippingPositionals skipped: Int) throws(InputError) {
        items.reserveCapacity(entries.count)
        var files = ItemFiles()
        var toSkip = skipped
        for entry in entries {
            switch entry {
            case .positional(let text):
                if toSkip > 0 {
                    toSkip -= 1
                    continue
                }
                if Self.looksLikeURL(text) {
                    throw InputError(.invalidURL, "'\(TargetURL.masked(text).echoed)' looks like a second URL; give one URL, then request items")
                }
                let item = try RequestItem(parsing: text)
                if case .fromFile(_, _, let path) = item {
                    typedItems[items.count] = text
                    valueFiles.append(path)
                }
                items.append(try files.resolve(item, typed: text))
            case .formPart(let text):
                let item = try RequestItem(parsingFormPart: text)
                if case .fromFile(_, _, let path) = item {
                    typedItems[items.count] = "-F \(text)"
                    valueFiles.append(path)
                }
                items.append(try files.resolve(item, typed: "-F \(text)"))
            }
        }
    }

    /// Whether an item is more likely a URL typed by mistake than a header:
    /// `http://…`, or `host:port/…` (`localhost:8080` or a dotted host with a
    /// port alone too). `X-Count:5` stays a header.
    private static func looksLikeURL(_ text: String) -> Bool {
        let lowered = text.lowercased()
        if lowered.hasPrefix("http://") || lowered.hasPrefix("https://") { return true }
        guard let colon = lowered.firstIndex(of: ":") else { return false }
        let host = lowered[..<colon]
        let afterColon = lowered[lowered.index(after: colon)...]
        let digits = afterColon.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, host.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "." || $0 == "-") }) else { return false }
        let rest = afterColon.dropFirst(digits.count)
        return rest.hasPrefix("/") || (rest.isEmpty && (host.isEmpty || host == "localhost" || host.contains("." as Character)))
    }
}

extension Invocation {
    /// The files the request reads (standard input aside), for checks that
    /// must not touch them, such as `-o` naming one of them.
    var inputPaths: [String] {
        items.compactMap { item in
            guard case .file(_, let source) = item, !source.isStandardInput else { return nil }
            return source.path
        } + valueFiles
    }

    /// How messages quote the item at `index`: as typed when its value came
    /// from a file, else as `made` writes it.
    func text(ofItemAt index: Int, or made: @autoclosure () -> String) -> String {
        typedItems[index] ?? made()
    }
}
