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

    /// Reads `head`'s fields.
    ///
    /// - Throws: ``ResumableUploadError`` (``ResumableUploadError/Code/invalidResponse``)
    ///   when `Tus-Max-Size` is not a non-negative decimal integer (tus 1.0
    ///   defines it as one; `-1` or `+5` would otherwise refuse every upload
    ///   or pass for a size).
    init(_ head: HTTPResponse) throws(ResumableUploadError) {
        func list(_ name: HTTPField.Name) -> [String] {
            (head.headerFields[name] ?? "").split(separator: ",").map { String($0.trimmingOptionalWhitespace) }.filter { !$0.isEmpty }
        }
        versions = list(.tusVersion)
        extensions = Set(list(.tusExtension))
        if let text = head.headerFields[.tusMaxSize] {
            let digits = text.trimmingOptionalWhitespace
            guard !digits.isEmpty, digits.utf8.count <= 19, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  let size = Int64(digits)
            else {
                throw .invalidResponse("Tus-Max-Size \(text.debugDescription) is not a non-negative integer")
            }
            maximumSize = size
        } else {
            maximumSize = nil
        }
        checksumAlgorithms = list(.tusChecksumAlgorithm).map { $0.lowercased() }
    }
}
