import HTTPTypes

extension HTTPFields {
    /// The members of a comma-separated list field such as `Cache-Control`
    /// or `Vary`, over all its field lines, trimmed and lowercased (both
    /// compare case-insensitively; RFC 9110 §5.6.1, RFC 9111 §5.2).
    func listValues(_ name: HTTPField.Name) -> [String] {
        self[values: name].flatMap { line in
            line.split(separator: ",").map { $0.trimmingOptionalWhitespace.lowercased() }
        }.filter { !$0.isEmpty }
    }

    /// Whether `Cache-Control` carries `directive` (with or without an argument).
    func hasCacheDirective(_ directive: String) -> Bool {
        listValues(.cacheControl).contains { member in
            member.split(separator: "=", maxSplits: 1).first.map(String.init) == directive
        }
    }
}
