import Foundation
import HTTPBody
import HTTPTypes
public import RequestBuilder

/// The requests of a multipart upload, each built here and nowhere else.
extension S3MultipartUpload {
    /// The first request a new upload sends, unsigned: `CreateMultipartUpload`
    /// (`POST /KEY?uploads`) with the object's headers and the checksum every
    /// part carries. For dry runs: ``S3Client/signed(_:date:)`` signs it.
    public func firstRequest(with client: S3Client) throws -> PreparedRequest {
        try createRequest(with: client)
    }

    /// `POST /KEY?uploads`.
    func createRequest(with client: S3Client) throws -> PreparedRequest {
        var fields = headerFields
        if fields[.contentType] == nil, let type = body.contentType {
            fields[.contentType] = type.description
        }
        fields[.amzChecksumAlgorithm] = client.checksumAlgorithm.name
        return try client.request(.post, bucket: location.bucket, key: location.key)
            .query("uploads", "")
            .headers(fields)
            .build()
    }

    /// `PUT /KEY?partNumber=N&uploadId=ID` with the part's bytes (perhaps
    /// encoded) and the `fields` that describe them.
    func partRequest(number: Int, uploadID: String, payload: RequestBody, fields: HTTPFields, with client: S3Client) throws -> PreparedRequest {
        try client.request(.put, bucket: location.bucket, key: location.key)
            .query("partNumber", String(number))
            .query("uploadId", uploadID)
            .headers(stepFields(includingCustomerKey: true))
            .headers(fields)
            .body(payload)
            .build()
    }

    /// `GET /KEY?uploadId=ID&part-number-marker=M`: one page of the parts the store holds.
    func listRequest(uploadID: String, after marker: Int, with client: S3Client) throws -> PreparedRequest {
        try client.request(.get, bucket: location.bucket, key: location.key)
            .query("uploadId", uploadID)
            .query("part-number-marker", String(marker))
            .headers(stepFields(includingCustomerKey: true))
            .build()
    }

    /// `POST /KEY?uploadId=ID` with the parts in order, each with its
    /// `algorithm` checksum (`<ChecksumCRC32>`), which the store compares with the part's.
    func completeRequest(uploadID: String, parts: [S3UploadedPart], algorithm: S3ChecksumAlgorithm, with client: S3Client) throws -> PreparedRequest {
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><CompleteMultipartUpload xmlns="http://s3.amazonaws.com/doc/2006-03-01/">"#
        for part in parts {
            xml += "<Part><PartNumber>\(part.number)</PartNumber><ETag>\(Self.escapeXML(part.eTag))</ETag>"
            if let checksum = part.checksum {
                xml += "<\(algorithm.elementName)>\(Self.escapeXML(checksum))</\(algorithm.elementName)>"
            }
            xml += "</Part>"
        }
        xml += "</CompleteMultipartUpload>"
        return try client.request(.post, bucket: location.bucket, key: location.key)
            .query("uploadId", uploadID)
            .headers(stepFields(includingCustomerKey: true))
            .body(.text(xml, contentType: MediaType(type: "application", subtype: "xml")))
            .build()
    }

    /// `DELETE /KEY?uploadId=ID`.
    func abortRequest(uploadID: String, with client: S3Client) throws -> PreparedRequest {
        try client.request(.delete, bucket: location.bucket, key: location.key)
            .query("uploadId", uploadID)
            .headers(stepFields(includingCustomerKey: false))
            .build()
    }

    /// Of ``headerFields``, those S3 wants again on the upload's later steps
    /// (its API reference; s3transfer's `UPLOAD_PART_ARGS`): who pays and
    /// whose bucket it must be, on every step; and, but for the abort, the
    /// customer-provided encryption key (SSE-C) with its algorithm and MD5,
    /// which each part is encrypted with and which `ListParts` and the
    /// completion need for an upload created with a checksum, as every upload here is.
    /// The object's own headers (`Content-Type`, `x-amz-meta-*`, ...) belong to the creation only.
    func stepFields(includingCustomerKey: Bool) -> HTTPFields {
        var names: [HTTPField.Name] = [.amzRequestPayer, .amzExpectedBucketOwner]
        if includingCustomerKey {
            names += [.amzCustomerKeyAlgorithm, .amzCustomerKey, .amzCustomerKeyMD5]
        }
        var fields = HTTPFields()
        for field in headerFields where names.contains(field.name) {
            fields.append(field)
        }
        return fields
    }

    /// Text as XML character data.
    static func escapeXML(_ text: String) -> String {
        var escaped = ""
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
