/// The options × kinds table as people read it: the help's per-kind notes
/// and the docs' table, both made from ``OptionRule/table``.
extension OptionRule {
    /// The kinds as the docs' table heads their columns.
    private static let columns: [(UploadKind, String)] = [
        (.plain, "plain"), (.resumable, "`--resumable`"), (.tus, "`--tus`"), (.object, "`s3://`"),
        (.objectTree, "`s3://` `-r`"), (.presignedPost, "`--presigned-post`"),
    ]

    /// One line per kind that refuses options, naming them, wrapped to fit
    /// 80 columns under the help's two-space indent.
    static var helpNotes: String {
        var lines: [String] = []
        for kind in UploadKind.allCases {
            let refused = table.filter { $0.refusals[kind] != nil }.map(\.option)
            guard !refused.isEmpty else { continue }
            var line = "  \(kind.name) \(kind == .presignedPost ? "refuses" : "refuse"):"
            for option in refused {
                if line.count + option.count + 2 > 78 {
                    lines.append(line + ",")
                    line = "    " + option
                } else {
                    line += (line.hasSuffix(":") ? " " : ", ") + option
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n")
    }

    /// The docs' table: a row per option, a column per kind, each cell
    /// "yes" or "no".
    static var markdownTable: String {
        var text = "| option | " + columns.map(\.1).joined(separator: " | ") + " |\n"
        text += "| --- |" + String(repeating: " :-: |", count: columns.count) + "\n"
        for rule in table {
            let cells = columns.map { kind, _ in rule.refusals[kind] == nil ? "yes" : "no" }
            text += "| `\(rule.option)` | " + cells.joined(separator: " | ") + " |\n"
        }
        return text
    }
}
