import Foundation

extension MultipartFormData {
    /// Appends a text field for every value in an `Encodable` value, for forms
    /// described as a struct: nested values become `a[b]`, array elements
    /// `a[0]`, `nil` optionals are left out.
    ///
    /// Strings, numbers and booleans are written as their description (`true`,
    /// `42`, `0.5`); `Date` as ISO 8601, `URL` as its absolute string, `Data`
    /// as Base64, `Decimal` as its description.
    ///
    /// - Throws: ``MultipartError/Code/invalidFieldValue`` when the top-level
    ///   value is a single value rather than a set of named fields, or an
    ///   error thrown by the value's own `encode(to:)`.
    public mutating func appendFields(from value: some Encodable) throws {
        let collector = FormFieldCollector()
        try FormFieldEncoder(collector: collector, key: nil, codingPath: []).encodeValue(value)
        for (name, text) in collector.fields {
            append(text, name: name)
        }
    }
}

/// The fields an encoding produced, in order.
private final class FormFieldCollector {
    var fields: [(String, String)] = []
}

/// Turns one value into fields named after its path from the root.
private struct FormFieldEncoder: Encoder {
    let collector: FormFieldCollector
    /// The field name for this value; `nil` at the root.
    let key: String?
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func childKey(_ name: String) -> String {
        key.map { "\($0)[\(name)]" } ?? name
    }

    func child(_ codingKey: any CodingKey, name: String) -> FormFieldEncoder {
        FormFieldEncoder(collector: collector, key: childKey(name), codingPath: codingPath + [codingKey])
    }

    /// Encodes a value, writing the types with a natural text form directly.
    func encodeValue(_ value: some Encodable) throws {
        if let text = Self.text(for: value) {
            try write(text)
        } else {
            try value.encode(to: self)
        }
    }

    func write(_ text: String) throws {
        guard let key else {
            throw MultipartError.invalidFieldValue(key: "(root)", reason: "is a single value; a form needs a struct or dictionary of named fields")
        }
        collector.fields.append((key, text))
    }

    static func text(for value: some Encodable) -> String? {
        switch value {
        case let date as Date: date.formatted(.iso8601)
        case let url as URL: url.absoluteString
        case let data as Data: data.base64EncodedString()
        case let decimal as Decimal: decimal.description
        default: nil
        }
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(FormKeyedContainer<Key>(encoder: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        FormUnkeyedContainer(encoder: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        FormSingleValueContainer(encoder: self)
    }
}

private struct IndexKey: CodingKey {
    let intValue: Int?
    let stringValue: String
    init(_ index: Int) {
        intValue = index
        stringValue = String(index)
    }
    init?(stringValue: String) { nil }
    init?(intValue: Int) { self.init(intValue) }
}

private struct FormKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoder: FormFieldEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    private func child(_ key: Key) -> FormFieldEncoder { encoder.child(key, name: key.stringValue) }

    mutating func encodeNil(forKey key: Key) throws {}
    mutating func encode(_ value: Bool, forKey key: Key) throws { try child(key).write(value ? "true" : "false") }
    mutating func encode(_ value: String, forKey key: Key) throws { try child(key).write(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try child(key).write(value.description) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try child(key).write(value.description) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { try child(key).write(String(value)) }
    mutating func encode(_ value: some Encodable, forKey key: Key) throws { try child(key).encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer { child(key).unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { encoder }
    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

private struct FormUnkeyedContainer: UnkeyedEncodingContainer {
    let encoder: FormFieldEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }
    private(set) var count = 0

    init(encoder: FormFieldEncoder) { self.encoder = encoder }

    /// The next element's encoder; `nil` elements keep their index so positions stay meaningful.
    private mutating func next() -> FormFieldEncoder {
        defer { count += 1 }
        return encoder.child(IndexKey(count), name: String(count))
    }

    mutating func encodeNil() throws { count += 1 }
    mutating func encode(_ value: Bool) throws { try next().write(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { try next().write(value) }
    mutating func encode(_ value: Double) throws { try next().write(value.description) }
    mutating func encode(_ value: Float) throws { try next().write(value.description) }
    mutating func encode(_ value: Int) throws { try next().write(String(value)) }
    mutating func encode(_ value: Int8) throws { try next().write(String(value)) }
    mutating func encode(_ value: Int16) throws { try next().write(String(value)) }
    mutating func encode(_ value: Int32) throws { try next().write(String(value)) }
    mutating func encode(_ value: Int64) throws { try next().write(String(value)) }
    mutating func encode(_ value: UInt) throws { try next().write(String(value)) }
    mutating func encode(_ value: UInt8) throws { try next().write(String(value)) }
    mutating func encode(_ value: UInt16) throws { try next().write(String(value)) }
    mutating func encode(_ value: UInt32) throws { try next().write(String(value)) }
    mutating func encode(_ value: UInt64) throws { try next().write(String(value)) }
    mutating func encode(_ value: some Encodable) throws { try next().encodeValue(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { next() }
}

private struct FormSingleValueContainer: SingleValueEncodingContainer {
    let encoder: FormFieldEncoder
    var codingPath: [any CodingKey] { encoder.codingPath }

    mutating func encodeNil() throws {}
    mutating func encode(_ value: Bool) throws { try encoder.write(value ? "true" : "false") }
    mutating func encode(_ value: String) throws { try encoder.write(value) }
    mutating func encode(_ value: Double) throws { try encoder.write(value.description) }
    mutating func encode(_ value: Float) throws { try encoder.write(value.description) }
    mutating func encode(_ value: Int) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: Int8) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: Int16) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: Int32) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: Int64) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: UInt) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: UInt8) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: UInt16) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: UInt32) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: UInt64) throws { try encoder.write(String(value)) }
    mutating func encode(_ value: some Encodable) throws { try encoder.encodeValue(value) }
}
