/// A part the store holds: what `CompleteMultipartUpload` lists.
struct S3UploadedPart: Sendable, Hashable {
    /// 1 to 10,000.
    var number: Int
    /// The `ETag` the store gave the part, quotes included.
    var eTag: String
    /// The part's checksum in base64, of the upload's algorithm, when the store keeps one.
    var checksum: String?
    /// The part's size in bytes.
    var size: Int64
}
