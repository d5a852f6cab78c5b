public import Foundation

/// Where a resumable upload stands: enough to continue it later, in this
/// process or another, after a dropped connection, a crash or `kill -9`.
///
/// The upload hands a new state to its `stateChanged` callback before the
/// first body byte of a new upload is sent and after each part the server
/// confirms; persist it (it is `Codable`) and pass it back as
/// `resumingFrom:` to continue. The server is the authority on how much it
/// holds: a resumed upload asks it (``offset`` is what it said last) and
/// sends only the rest.
public struct ResumableUploadState: Codable, Sendable, Hashable {
    /// The protocol an upload speaks.
    public enum UploadProtocol: String, Codable, Sendable, Hashable {
        /// The IETF's resumable uploads draft (`draft-ietf-httpbis-resumable-upload`).
        case draft = "ietf-draft"
        /// tus 1.0.
        case tus
    }

    /// The protocol of the upload.
    public var uploadProtocol: UploadProtocol
    /// Where the upload continues: the draft's resumption URL, or tus's upload URL.
    public var uploadURL: URL
    /// The bytes the server held when it last said.
    public var offset: Int64
    /// The body the upload sends, as it was when the upload began.
    public var body: BodyIdentity
    /// The draft's interoperability version (3, 5 or 6); `nil` for tus.
    public var draftVersion: Int?

    /// Creates a state, such as one read back from storage.
    public init(uploadProtocol: UploadProtocol, uploadURL: URL, offset: Int64, body: BodyIdentity, draftVersion: Int? = nil) {
        self.uploadProtocol = uploadProtocol
        self.uploadURL = uploadURL
        self.offset = offset
        self.body = body
        self.draftVersion = draftVersion
    }

    /// Decodes a state, such as one saved by an earlier run.
    ///
    /// - Throws: `DecodingError.dataCorrupted` when ``offset`` is negative or
    ///   past the body's length: no upload stands there, and a state on disk
    ///   may have been edited or written by another tool.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        uploadProtocol = try container.decode(UploadProtocol.self, forKey: .uploadProtocol)
        uploadURL = try container.decode(URL.self, forKey: .uploadURL)
        offset = try container.decode(Int64.self, forKey: .offset)
        body = try container.decode(BodyIdentity.self, forKey: .body)
        draftVersion = try container.decodeIfPresent(Int.self, forKey: .draftVersion)
        guard offset >= 0, offset <= body.length else {
            throw DecodingError.dataCorruptedError(forKey: .offset, in: container, debugDescription: "the offset \(offset) is outside the body's \(body.length) bytes")
        }
    }
}
