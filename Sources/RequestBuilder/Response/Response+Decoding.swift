public import Foundation
import HTTPTypes

extension Response {
    /// Decodes the body as JSON into `type`.
    ///
    /// `Data` and `String` are special: they receive the raw bytes and the
    /// UTF-8 text, and ``EmptyResponse`` accepts any body, an empty one included.
    ///
    /// - Parameters:
    ///   - type: The type to decode; inferred from the context by default.
    ///   - decoder: The decoder to use; share one configured instance,
    ///     such as `JSONDecoder.snakeCaseISO8601`.
    /// - Throws: ``RequestError`` (``RequestError/Code/decoding``) whose
    ///   description names the type and the coding path that failed, and
    ///   which carries this response.
    public func decode<Value: Decodable>(
        _ type: Value.Type = Value.self,
        using decoder: JSONDecoder = JSONDecoder()
    ) throws(RequestError) -> Value {
        if let data = body as? Value { return data }
        if Value.self == String.self {
            guard let text = String(data: body, encoding: .utf8) as? Value else {
                throw RequestError.decoding(Value.self, response: self, reason: "the body is not valid UTF-8")
            }
            return text
        }
        if let empty = EmptyResponse() as? Value { return empty }
        do {
            return try decoder.decode(Value.self, from: body)
        } catch {
            throw RequestError.decoding(Value.self, response: self, error: error)
        }
    }

    /// This response, if its status is one of `acceptable`.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/unacceptableStatus``)
    ///   carrying this response, with the status and a preview of the body.
    public func validated(by acceptable: AcceptableStatus) throws(RequestError) -> Response {
        guard acceptable.accepts(status) else { throw RequestError.unacceptableStatus(self) }
        return self
    }

    /// The `ETag` validator, if the server sent one, quotes and `W/` prefix included.
    public var etag: String? { headerFields[.eTag] }

    /// The start of the body as text, for error messages and logs: at most
    /// `limit` bytes, invalid UTF-8 replaced, control characters escaped, and
    /// `…` when the body is longer.
    public func bodyPreview(limit: Int = 512) -> String {
        guard !body.isEmpty else { return "" }
        let prefix = body.prefix(max(0, limit))
        var text = ""
        for scalar in String(decoding: prefix, as: UTF8.self).unicodeScalars {
            switch scalar {
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: text += "\\u{\(String(scalar.value, radix: 16))}"
            default: text.unicodeScalars.append(scalar)
            }
        }
        return body.count > prefix.count ? text + "…" : text
    }
}
