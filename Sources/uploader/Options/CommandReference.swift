import ArgumentParser
import Foundation

/// The options as people read about them, in the docs' groups: each
/// option's spellings, value name and sentence come from its one
/// declaration (swift-argument-parser's description of ``Uploader``, read
/// only when a help or manual page is asked for), its group from
/// ``groups``. `--help` (``helpPage``) and the man page (``ManualPage``)
/// are made from it.
struct CommandReference {
    /// One option as the reference shows it.
    struct Entry {
        /// Its spellings, short first: `-o, --output`.
        let names: [String]
        /// The name of its value (`path`), for an option that takes one.
        let valueName: String?
        /// What it does.
        let abstract: String
    }

    /// The docs' groups, in order, each naming its options by long name.
    static let groups: [(title: String, options: [String])] = [
        ("REQUEST BODY", ["--form-part", "--multipart", "--form", "--json", "--data", "--header", "--ignore-stdin", "--chunked", "--gzip", "--boundary", "--recursive"]),
        ("SENDING", ["--dry-run", "--timeout", "--retry", "--retry-max-time", "--progress"]),
        ("OUTPUT", ["--output", "--print", "--pretty", "--compressed", "--verbose", "--print-response-headers", "--check-status"]),
        ("RESUMABLE UPLOADS", ["--resumable", "--tus", "--chunk-size", "--resume-from", "--state-dir"]),
        ("OBJECT STORES", ["--endpoint-url", "--region", "--profile", "--part-size", "--concurrency", "--multipart-threshold", "--presigned-post"]),
        ("TLS, PROXIES, AUTHENTICATION, REDIRECTS", [
            "--cacert", "--insecure", "--cert", "--key", "--proxy", "--noproxy", "--auth", "--bearer", "--netrc", "--netrc-file",
            "--netrc-optional", "--follow", "--max-redirects",
        ]),
        ("COOKIES AND SESSIONS", ["--cookie", "--cookie-jar", "--session", "--session-read-only"]),
    ]

    /// Every option, by its group; an option no group names comes last,
    /// under OTHER OPTIONS, so none is ever left out.
    let sections: [(title: String, entries: [Entry])]

    /// The reference of the declared options.
    init() {
        var byLongName: [String: Entry] = [:]
        var order: [String] = []
        for argument in Self.declaredArguments() {
            let spellings = (argument.names ?? []).sorted { $0.kind != "long" && $1.kind == "long" }.map(\.spelling)
            guard var long = spellings.first(where: { $0.hasPrefix("--") }), long != "--help", long != "--version" else { continue }
            // An inverted flag's `--no-` half belongs to the flag (--progress).
            if long.hasPrefix("--no-"), byLongName["--" + long.dropFirst(5)] != nil { long = "--" + long.dropFirst(5) }
            if let known = byLongName[long] {
                // An inverted flag (--progress/--no-progress) is two arguments: one entry.
                byLongName[long] = Entry(names: known.names + spellings.filter { !known.names.contains($0) }, valueName: known.valueName, abstract: known.abstract)
                continue
            }
            let entry = Entry(names: spellings, valueName: argument.kind == "option" ? argument.valueName : nil, abstract: argument.abstract ?? "")
            for spelling in spellings where spelling.hasPrefix("--") { byLongName[spelling] = entry }
            order.append(long)
        }
        var placed: Set<String> = []
        var sections: [(String, [Entry])] = []
        for group in Self.groups {
            let entries = group.options.compactMap { name -> Entry? in
                guard let entry = byLongName[name], let long = entry.names.first(where: { $0.hasPrefix("--") }), !placed.contains(long) else { return nil }
                placed.insert(long)
                return entry
            }
            if !entries.isEmpty { sections.append((group.title, entries)) }
        }
        let rest = order.filter { !placed.contains($0) }.compactMap { byLongName[$0] }
        if !rest.isEmpty { sections.append(("OTHER OPTIONS", rest)) }
        self.sections = sections
    }

    /// `--help`: USAGE first, the options in the docs' groups, then the
    /// items, the kinds of upload, the exit statuses and examples.
    var helpPage: String {
        var text = "OVERVIEW: \(Uploader.configuration.abstract)\n\n"
        text += "USAGE: \(Uploader.synopsis.joined(separator: "\n       "))\n\n"
        for section in sections {
            text += "\(section.title):\n"
            for entry in section.entries {
                let head = "  " + entry.names.joined(separator: ", ") + (entry.valueName.map { " <\($0)>" } ?? "")
                text += head.count < 28 ? head + String(repeating: " ", count: 28 - head.count) : head + "\n" + String(repeating: " ", count: 28)
                text += Self.wrapped(entry.abstract, width: 52, indent: 28) + "\n"
            }
            text += "\n"
        }
        text += "  -h, --help                Show help information.\n  --version                 Show the version.\n\n"
        return text + HelpText.discussion + "\n"
    }

    /// `text` in lines of at most `width` columns, the second and later
    /// indented by `indent`.
    static func wrapped(_ text: String, width: Int, indent: Int) -> String {
        var lines: [String] = []
        var line = ""
        for word in text.split(separator: " ") {
            if !line.isEmpty, line.count + 1 + word.count > width {
                lines.append(line)
                line = String(word)
            } else {
                line += (line.isEmpty ? "" : " ") + word
            }
        }
        if !line.isEmpty { lines.append(line) }
        return lines.joined(separator: "\n" + String(repeating: " ", count: indent))
    }

    /// The declared arguments as swift-argument-parser describes them.
    private static func declaredArguments() -> [Argument] {
        let json = Data(Uploader._dumpHelp().utf8)
        return (try? JSONDecoder().decode(ToolInfo.self, from: json))?.command.arguments ?? []
    }

    /// The part of swift-argument-parser's `ToolInfoV0` read here.
    private struct ToolInfo: Decodable {
        struct Command: Decodable { var arguments: [Argument]? }
        var command: Command
    }

    /// One argument: `kind` is `option` (takes a value), `flag` or `positional`.
    private struct Argument: Decodable {
        struct Name: Decodable {
            var kind: String
            var name: String
            var spelling: String { kind == "long" ? "--\(name)" : "-\(name)" }
        }

        var kind: String
        var names: [Name]?
        var valueName: String?
        var abstract: String?
    }
}
