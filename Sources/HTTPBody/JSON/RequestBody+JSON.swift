public import Foundation

extension RequestBody {
    /// A body holding `value` encoded as JSON, sent as `application/json`.
    ///
    /// The value is encoded once, now; the body is then replayable bytes.
    /// The default encoder sorts keys, so the same value always gives the
    /// same bytes (see `JSONEncoder.deterministic`); pass your own
    /// to choose key and date strategies.
    ///
    /// - Throws: ``JSONBodyError`` naming the coding path of a value JSON
    ///   cannot hold, such as `items[2].price` for a non-finite `Double`.
    public static func json(
        _ value: (some Encodable & Sendable)?,
        encoder: JSONEncoder = .deterministic
    ) throws(JSONBodyError) -> RequestBody {
        .bytes(try jsonBytes(value, encoder: encoder), contentType: .json)
    }

    /// `value` encoded as JSON, its failure named by coding path: the one
    /// JSON encoding step of JSON bodies and JSON multipart parts.
    package static func jsonBytes(_ value: (some Encodable & Sendable)?, encoder: JSONEncoder) throws(JSONBodyError) -> [UInt8] {
        do {
            return [UInt8](try encoder.encode(value))
        } catch let EncodingError.invalidValue(_, context) {
            throw .invalidValue(at: CodingPathText.json(context.codingPath), reason: context.debugDescription)
        } catch {
            throw .invalidValue(at: "the top level", reason: "\(error)")
        }
    }

    /// A body holding a JSON object built field by field, sent as `application/json`.
    package static func json(_ object: JSONObject) -> RequestBody {
        .bytes(object.encoded(), contentType: .json)
    }
}

extension JSONEncoder {
    /// A new encoder whose output is the same for the same value on every
    /// platform: keys sorted, `/` not escaped; other strategies are the defaults.
    public static var deterministic: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}
