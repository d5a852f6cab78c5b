import HTTPTypes
import RequestBuilder

/// What a tus server offers, from its answer to `OPTIONS` (tus 1.0).
struct TusServerOptions: Sendable {
    /// The protocol versions it speaks, preferred first.
    var versions: [String]
    /// The extensions it supports, such as `creation` and `termination`.
    var extensions: Set<String>
    /// The largest upload it accepts, if it says.
    var maximumSize: Int64?
    /// The checksum algorithms it verifies, lowercased.
    var checksumAlgorithms: [String]

    init(_ head: HTTPResponse) {
        func list(_ name: HTTPField.Name) -> [String] {
            (head.headerFields[name] ?? "").split(separator: ",").map { String($0.trimmingOptionalWhitespace) }.filter { !$0.isEmpty }
        }
        versions = list(.tusVersion)
        extensions = Set(list(.tusExtension))
        maximumSize = head.headerFields[.tusMaxSize].flatMap { Int64($0.trimmingOptionalWhitespace) }
        checksumAlgorithms = list(.tusChecksumAlgorithm).map { $0.lowercased() }
    }
}
