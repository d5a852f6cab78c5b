/// One completed logical upload as the application behind the resumable-upload
/// layer saw it: the original request's head (`Upload-Complete` and
/// `Upload-Offset` stripped by that layer) and what its body added up to.
struct StoredUpload: Codable, Sendable {
    /// The folder under the storage folder that holds `body` and `request.json`.
    var upload = ""
    var method: String
    var path: String
    /// Header fields in order, as `[name, value]` pairs.
    var headers: [[String]]
    var bytes: Int64
    /// Lowercase hex.
    var sha256: String
}
