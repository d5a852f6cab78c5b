import HTTPTypes

extension HTTPField.Name {
    // The IETF draft's fields.
    static let uploadDraftInteropVersion = Self("Upload-Draft-Interop-Version")!
    static let uploadComplete = Self("Upload-Complete")!
    static let uploadIncomplete = Self("Upload-Incomplete")!
    static let uploadOffset = Self("Upload-Offset")!
    // tus 1.0's.
    static let tusResumable = Self("Tus-Resumable")!
    static let tusVersion = Self("Tus-Version")!
    static let tusExtension = Self("Tus-Extension")!
    static let tusMaxSize = Self("Tus-Max-Size")!
    static let tusChecksumAlgorithm = Self("Tus-Checksum-Algorithm")!
    static let uploadLength = Self("Upload-Length")!
    static let uploadMetadata = Self("Upload-Metadata")!
    static let uploadChecksum = Self("Upload-Checksum")!
}
