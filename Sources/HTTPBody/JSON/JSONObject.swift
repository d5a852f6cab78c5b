/// A JSON object built field by field, written out in the order its fields
/// were set; each value is a string or a piece of raw JSON kept as written.
///
/// This is what `uploader`'s `name=text` and `name:=json` items build:
///
/// ```swift
/// var object = JSONObject()
/// object["title"] = .string("Hello")
/// object["id"] = .raw(try RawJSON(validating: "9007199254740993"))
/// // {"title":"Hello","id":9007199254740993}
/// ```
package struct JSONObject: Sendable, Hashable, CustomStringConvertible {
    /// One field's value: a string, or raw JSON text.
    package struct Value: Sendable, Hashable {
        fileprivate enum Storage: Sendable, Hashable {
            case string(String)
            case raw(RawJSON)
        }

        fileprivate let storage: Storage

        /// A JSON string holding `text`, escaped as needed.
        package static func string(_ text: String) -> Value { Value(storage: .string(text)) }

        /// A validated JSON value, written exactly as given.
        package static func raw(_ json: RawJSON) -> Value { Value(storage: .raw(json)) }
    }

    /// One name and its value.
    package struct Field: Sendable, Hashable {
        /// The field's name.
        package var name: String
        /// The field's value.
        package var value: Value

        /// Creates a field.
        package init(name: String, value: Value) {
            self.name = name
            self.value = value
        }
    }

    /// The fields, in the order they are written.
    package private(set) var fields: [Field] = []
    /// Where each name stands in `fields`: setting a field is a lookup, not a
    /// scan, so building an object of 100,000 fields stays linear. Names are
    /// compared as written (``ExactName``).
    private var positions: [ExactName: Int] = [:]

    /// Creates an empty object.
    package init() {}

    /// Creates an object from fields; a later field with the same name
    /// replaces an earlier one's value, keeping the earlier position.
    package init(_ fields: [Field]) {
        for field in fields { self[field.name] = field.value }
    }

    /// The value of the field named `name`. Setting a name already present
    /// replaces its value in place, so names stay unique (RFC 8259, section 4);
    /// setting `nil` removes the field.
    package subscript(name: String) -> Value? {
        get { positions[ExactName(name)].map { fields[$0].value } }
        set {
            let key = ExactName(name)
            switch (positions[key], newValue) {
            case let (index?, value?):
                fields[index].value = value
            case let (index?, nil):
                fields.remove(at: index)
                positions[key] = nil
                for later in index..<fields.count { positions[ExactName(fields[later].name)] = later }
            case let (nil, value?):
                positions[key] = fields.count
                fields.append(Field(name: name, value: value))
            case (nil, nil):
                break
            }
        }
    }

    /// The object as compact JSON text, fields in order.
    package var description: String { String(decoding: encoded(), as: UTF8.self) }

    /// The object as compact UTF-8 JSON: no spaces, strings escaped minimally
    /// (quote, backslash and control characters only), raw values as written.
    package func encoded() -> [UInt8] {
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        for (position, field) in fields.enumerated() {
            if position > 0 { bytes.append(UInt8(ascii: ",")) }
            appendJSONString(field.name, to: &bytes)
            bytes.append(UInt8(ascii: ":"))
            switch field.value.storage {
            case .string(let text): appendJSONString(text, to: &bytes)
            case .raw(let json): bytes.append(contentsOf: json.text.utf8)
            }
        }
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }
}

/// Writes `text` as a JSON string (RFC 8259, section 7).
package func appendJSONString(_ text: String, to bytes: inout [UInt8]) {
    bytes.append(UInt8(ascii: "\""))
    for byte in text.utf8 {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x08: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
        case 0x0C: bytes.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
        case 0x00..<0x20:
            bytes.append(contentsOf: Array("\\u00".utf8))
            bytes.append(Hex.lowercaseDigits[Int(byte >> 4)])
            bytes.append(Hex.lowercaseDigits[Int(byte & 0x0F)])
        default: bytes.append(byte)
        }
    }
    bytes.append(UInt8(ascii: "\""))
}
