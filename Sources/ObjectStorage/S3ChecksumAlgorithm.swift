import HTTPTypes

/// The checksum S3 verifies on what an upload sends: each `PUT` and each part
/// carries one (`x-amz-checksum-crc32`), a multipart upload declares it when
/// created (`x-amz-checksum-algorithm`), and lists it per part when completed.
///
/// ``crc32`` is the default, as in the AWS SDKs and CLI since they began
/// checking uploads by default (2025; boto3 and `aws s3 cp` send it). Every
/// request also carries the SHA-256 of its payload, signed
/// (`x-amz-content-sha256`), which S3 checks too: a part is verified against
/// both. ``sha256`` stores a SHA-256 checksum instead, at the price of
/// SHA-256 over the whole object again when a store completes a multipart
/// upload (moto: half a second a GiB of its one-core completion).
public struct S3ChecksumAlgorithm: Sendable, Hashable, Codable, CustomStringConvertible {
    private enum Storage: String {
        case crc32 = "CRC32"
        case sha256 = "SHA256"
    }

    private let storage: Storage

    private init(_ storage: Storage) {
        self.storage = storage
    }

    /// CRC-32 (ISO 3309), four bytes: the AWS SDKs' default.
    public static let crc32 = S3ChecksumAlgorithm(.crc32)
    /// SHA-256, 32 bytes: the digest SigV4 already signs, kept by the store as well.
    public static let sha256 = S3ChecksumAlgorithm(.sha256)

    /// S3's name for it: `CRC32`, `SHA256`.
    public var name: String { storage.rawValue }

    /// The name, as S3 spells it.
    public var description: String { name }

    /// The field a request carries its value in: `x-amz-checksum-crc32`.
    var headerName: HTTPField.Name {
        switch storage {
        case .crc32: .amzChecksumCRC32
        case .sha256: .amzChecksumSHA256
        }
    }

    /// The XML element that holds a part's value in `ListParts` and
    /// `CompleteMultipartUpload`: `ChecksumCRC32`.
    var elementName: String { "Checksum" + name }

    /// Reads S3's name (`"CRC32"`), as saved in an upload's state.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let name = try container.decode(String.self)
        guard let storage = Storage(rawValue: name) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "'\(name)' is not a checksum algorithm this version sends (CRC32, SHA256)")
        }
        self.storage = storage
    }

    /// Writes S3's name.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}
