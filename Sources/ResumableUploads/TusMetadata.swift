import Foundation

/// tus's `Upload-Metadata`: comma-separated pairs of a key and its value in
/// base64 (tus 1.0, creation extension).
enum TusMetadata {
    /// The field's value for `pairs`, in order.
    ///
    /// - Throws: ``ResumableUploadError`` naming a key that is empty, not
    ///   ASCII, or holds a space or comma (which would break the list), or a
    ///   key given twice.
    static func fieldValue(_ pairs: [(key: String, value: String)]) throws(ResumableUploadError) -> String {
        var seen = Set<String>()
        var items: [String] = []
        for (key, value) in pairs {
            guard !key.isEmpty, key.unicodeScalars.allSatisfy({ $0.value > 0x20 && $0.value < 0x7F && $0 != "," }) else {
                throw ResumableUploadError(code: .bodyNotResumable, description: "The tus metadata key \(key.debugDescription) must be non-empty ASCII without spaces or commas")
            }
            guard seen.insert(key).inserted else {
                throw ResumableUploadError(code: .bodyNotResumable, description: "The tus metadata key \(key.debugDescription) is given twice")
            }
            items.append(value.isEmpty ? key : "\(key) \(Data(value.utf8).base64EncodedString())")
        }
        return items.joined(separator: ",")
    }
}
