public import Foundation
public import HTTPBody
public import RequestBuilder
public import SystemPackage
import HTTPTypes

/// A presigned POST form: the URL to post to and the signed fields that go
/// before the file, as ``S3PostPolicy/presignedPost(endpoint:signer:date:)``
/// makes them or as boto3's `generate_presigned_post` returns them.
///
/// ```swift
/// let post = try PresignedPost(json: Data(contentsOf: URL(filePath: "form.json")))
/// let request = try post.request(fileAt: URL(filePath: "photo.jpg")).build()
/// let response = try await client.send(request)
/// ```
///
/// Whoever holds the form can upload what its policy allows, without
/// credentials: a browser, a phone, another service.
public struct PresignedPost: Sendable {
    /// One form field.
    public struct Field: Sendable, Hashable, Codable {
        /// The field's name, such as `key` or `x-amz-signature`.
        public var name: String
        /// The field's value.
        public var value: String

        /// A field named `name` holding `value`.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Where the form is posted: the bucket's URL.
    public var url: URL
    /// The fields, in the order they are sent; the file follows them.
    public var fields: [Field]

    /// A form for `url` with `fields`.
    public init(url: URL, fields: [Field]) {
        self.url = url
        self.fields = fields
    }

    /// Reads the JSON boto3's `generate_presigned_post` returns:
    /// `{"url": "...", "fields": {"key": "...", "policy": "...", ...}}`.
    ///
    /// JSON objects have no order, so the fields are sent with `key` first
    /// and the rest by name; S3 needs only the file to come last.
    ///
    /// - Throws: ``S3Error`` (``S3Error/Code/invalidArgument``) naming what is
    ///   missing or of the wrong type.
    public init(json: Data) throws(S3Error) {
        struct Form: Decodable {
            var url: String
            var fields: [String: String]
        }
        let form: Form
        do {
            form = try JSONDecoder().decode(Form.self, from: json)
        } catch {
            throw S3Error(code: .invalidArgument, description: "The presigned form is not an object with a \"url\" string and a \"fields\" object of strings: \(Self.describe(error))")
        }
        guard let url = URL(string: form.url), let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https", url.host?.isEmpty == false else {
            throw S3Error(code: .invalidArgument, description: "The presigned form's url '\(form.url.prefix(200))' is not an http(s) URL")
        }
        guard form.fields["key"] != nil else {
            throw S3Error(code: .invalidArgument, description: "The presigned form has no \"key\" field, so S3 would not know where to put the file")
        }
        let ordered = form.fields.sorted { left, right in
            left.key == "key" ? right.key != "key" : (right.key == "key" ? false : left.key < right.key)
        }
        self.init(url: url, fields: ordered.map { Field(name: $0.key, value: $0.value) })
    }

    /// The form's fields then `extraFields`, in a form to which you append the
    /// file (named `file`, as S3 requires, and last).
    public func multipartForm(extraFields: [Field] = [], boundary: MultipartBoundary = .random()) -> MultipartFormData {
        var form = MultipartFormData(boundary: boundary)
        for field in fields + extraFields {
            form.append(field.value, name: field.name)
        }
        return form
    }

    /// The whole form with the file at `url` last, ready to send.
    ///
    /// - Parameters:
    ///   - fileURL: A regular file, streamed from disk when sent.
    ///   - filename: The filename sent (what `${filename}` in the key becomes); the file's base name by default.
    ///   - contentType: The part's type; sniffed from the content when `nil`.
    ///     (The object's own type comes from a `Content-Type` field, if the
    ///     form has one.)
    ///   - extraFields: Fields the policy allows beyond the signed ones, sent before the file.
    /// - Throws: `RequestBodyError` naming the file when it is missing, a directory or unreadable.
    public func request(
        fileAt fileURL: URL,
        filename: String? = nil,
        contentType: MediaType? = nil,
        extraFields: [Field] = []
    ) throws(RequestBodyError) -> HTTPRequestBuilder {
        var form = multipartForm(extraFields: extraFields)
        try form.appendFile(at: fileURL, name: "file", filename: filename, contentType: contentType)
        return HTTPRequestBuilder(.post, url).multipart(form)
    }

    /// As ``request(fileAt:filename:contentType:extraFields:)``, for a path
    /// given as bytes (a name that is not UTF-8 is kept exactly).
    public func request(
        fileAtPath path: FilePath,
        filename: String? = nil,
        contentType: MediaType? = nil,
        extraFields: [Field] = []
    ) throws(RequestBodyError) -> HTTPRequestBuilder {
        var form = multipartForm(extraFields: extraFields)
        try form.appendFile(atPath: path, name: "file", filename: filename, contentType: contentType)
        return HTTPRequestBuilder(.post, url).multipart(form)
    }

    /// A decoding error in a sentence, with the path to the value at fault.
    private static func describe(_ error: any Error) -> String {
        switch error {
        case DecodingError.keyNotFound(let key, _):
            return "\"\(key.stringValue)\" is missing"
        case DecodingError.typeMismatch(_, let context), DecodingError.valueNotFound(_, let context):
            // The shared renderer, so a path through a list reads `a[2]`; the
            // top level stays `""` as this message has always written it.
            let path = context.codingPath.isEmpty ? "" : CodingPathText.json(context.codingPath)
            return "\"\(path)\" is not a string"
        case DecodingError.dataCorrupted:
            return "it is not valid JSON"
        default:
            return "\(error)"
        }
    }
}
