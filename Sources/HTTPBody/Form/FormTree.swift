import Foundation

/// One `name=value` of the output; a `nil` value is written as the name alone.
struct FormPair: Equatable {
    var name: String
    var value: String?

    /// Stable sort by the names' UTF-8 bytes, the same on every platform.
    static func sortedByName(_ pairs: [FormPair]) -> [FormPair] {
        pairs.enumerated().sorted { lhs, rhs in
            if lhs.element.name == rhs.element.name { return lhs.offset < rhs.offset }
            return lhs.element.name.utf8.lexicographicallyPrecedes(rhs.element.name.utf8)
        }.map(\.element)
    }
}

/// The private engine behind form and query encoding: an `Encoder` that
/// builds a tree of nodes from any `Encodable`, then flattens it into
/// bracketed names (`a[b][]`) with the encoder's strategies applied.
struct FormTree {
    let root: FormNode

    init(encoding value: some Encodable, with options: URLEncodedFormEncoder) throws(URLEncodedFormError) {
        root = FormNode()
        do {
            try FormEncoding(options: options, node: root, codingPath: []).box(value)
        } catch let error as URLEncodedFormError {
            throw error
        } catch let EncodingError.invalidValue(_, context) {
            throw .invalidValue(at: CodingPathText.form(context.codingPath), reason: context.debugDescription)
        } catch {
            throw .invalidValue(at: "", reason: "\(error)")
        }
        switch root.kind {
        case .object, .unset: break
        case .array: throw .topLevelNotKeyed(type(of: value), encodedAs: "a list")
        case .value, .null: throw .topLevelNotKeyed(type(of: value), encodedAs: "a single value")
        }
    }

    /// The flattened pairs, in output order.
    func pairs(with options: URLEncodedFormEncoder) -> [FormPair] {
        var pairs: [FormPair] = []
        flatten(root, name: "", options: options, into: &pairs)
        return pairs
    }

    private func flatten(_ node: FormNode, name: String, options: URLEncodedFormEncoder, into pairs: inout [FormPair]) {
        switch node.kind {
        case .unset:
            return
        case .value:
            pairs.append(FormPair(name: name, value: node.value))
        case .null:
            switch options.nilEncoding.base {
            case .dropKey: return
            case .dropValue: pairs.append(FormPair(name: name, value: ""))
            case .keyOnly: pairs.append(FormPair(name: name, value: nil))
            case .null: pairs.append(FormPair(name: name, value: "null"))
            }
        case .object:
            var entries = node.entries
            if options.keyOrdering == .sorted || node.isDictionary {
                entries = entries.enumerated().sorted { lhs, rhs in
                    if lhs.element.key == rhs.element.key { return lhs.offset < rhs.offset }
                    return lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
                }.map(\.element)
            }
            for entry in entries {
                flatten(entry.node, name: name.isEmpty ? entry.key : "\(name)[\(entry.key)]", options: options, into: &pairs)
            }
        case .array:
            for (index, element) in node.elements.enumerated() {
                let elementName =
                    switch options.arrayEncoding.base {
                    case .brackets: "\(name)[]"
                    case .indexInBrackets: "\(name)[\(index)]"
                    case .noBrackets: name
                    }
                flatten(element, name: elementName, options: options, into: &pairs)
            }
        }
    }
}

/// A node of the tree: unset until a container or value claims it.
final class FormNode {
    enum Kind { case unset, value, null, object, array }

    var kind = Kind.unset
    var value = ""
    var entries: [(key: String, node: FormNode)] = []
    var elements: [FormNode] = []
    /// Set for a `Dictionary`: its keys are sorted and never transformed.
    var isDictionary = false

    func set(_ text: String) {
        kind = .value
        value = text
    }

    func addEntry(_ key: String) -> FormNode {
        if kind != .object { kind = .object }
        let child = FormNode()
        entries.append((key, child))
        return child
    }

    func addElement() -> FormNode {
        if kind != .array { kind = .array }
        let child = FormNode()
        elements.append(child)
        return child
    }
}

/// Marks `Dictionary`, whose keys need checking and sorting.
private protocol FormDictionary {
    static var keyType: Any.Type { get }
}

extension Dictionary: FormDictionary {
    fileprivate static var keyType: Any.Type { Key.self }
}

/// A list index or a fixed name (`super`), as a coding key.
private struct FormKey: CodingKey {
    let stringValue: String
    let intValue: Int?
    init(intValue: Int) {
        self.intValue = intValue
        stringValue = String(intValue)
    }
    init(stringValue: String) {
        self.stringValue = stringValue
        intValue = nil
    }
}

/// The `Encoder` handed to values; it writes into one node.
private struct FormEncoding: Encoder {
    let options: URLEncodedFormEncoder
    let node: FormNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if node.kind != .object { node.kind = .object }
        return KeyedEncodingContainer(KeyedContainer<Key>(encoding: self))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if node.kind != .array { node.kind = .array }
        return UnkeyedContainer(encoding: self)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleValueContainer(encoding: self)
    }

    func child(_ node: FormNode, key: any CodingKey) -> FormEncoding {
        FormEncoding(options: options, node: node, codingPath: codingPath + [key])
    }

    /// Encodes `value` into this node, applying the strategies for the types they cover.
    func box<Value: Encodable>(_ value: Value) throws {
        switch value {
        case let text as String:
            node.set(text)
        case let flag as Bool:
            writeBool(flag)
        case let number as Double:
            try writeFloatingPoint(number)
        case let number as Float:
            try writeFloatingPoint(number)
        case let date as Date:
            try writeDate(date)
        case let data as Data:
            try writeData(data)
        case let url as URL:
            node.set(url.absoluteString)
        case let decimal as Decimal:
            node.set(decimal.description)
        case let dictionary as any FormDictionary:
            let keyType = type(of: dictionary).keyType
            guard keyType == String.self || keyType is any CodingKeyRepresentable.Type else {
                throw URLEncodedFormError.nonStringKey(at: CodingPathText.form(codingPath), keyType: keyType)
            }
            node.isDictionary = true
            node.kind = .object  // an empty dictionary is still keyed
            try value.encode(to: self)
        default:
            try value.encode(to: self)
        }
    }

    func writeBool(_ flag: Bool) {
        switch options.boolEncoding.base {
        case .numeric: node.set(flag ? "1" : "0")
        case .literal: node.set(flag ? "true" : "false")
        }
    }

    func writeFloatingPoint<Number: BinaryFloatingPoint & LosslessStringConvertible>(_ number: Number) throws {
        guard number.isFinite else {
            throw URLEncodedFormError.invalidValue(at: CodingPathText.form(codingPath), reason: "\(number) is not a finite number")
        }
        node.set(number.description)
    }

    private func writeDate(_ date: Date) throws {
        switch options.dateEncoding.base {
        case .deferredToDate:
            try date.encode(to: self)
        case .secondsSince1970:
            node.set(Self.wholeOrDecimal(date.timeIntervalSince1970))
        case .millisecondsSince1970:
            node.set(Self.wholeOrDecimal(date.timeIntervalSince1970 * 1000))
        case .iso8601:
            node.set(Date.ISO8601FormatStyle().format(date))
        case .custom(let format):
            do { node.set(try format(date)) } catch {
                throw URLEncodedFormError.strategyFailed(at: CodingPathText.form(codingPath), error: error)
            }
        }
    }

    private func writeData(_ data: Data) throws {
        switch options.dataEncoding.base {
        case .deferredToData:
            try data.encode(to: self)
        case .base64:
            node.set(data.base64EncodedString())
        case .custom(let format):
            do { node.set(try format(data)) } catch {
                throw URLEncodedFormError.strategyFailed(at: CodingPathText.form(codingPath), error: error)
            }
        }
    }

    /// `1700000000` rather than `1700000000.0` when the number is whole.
    private static func wholeOrDecimal(_ number: Double) -> String {
        if number.isFinite, number.rounded() == number, abs(number) < 1e15 { return String(Int64(number)) }
        return number.description
    }

    /// A property name with the key strategy applied; dictionary keys stay as they are.
    func name(for key: some CodingKey) -> String {
        let name = key.stringValue
        if node.isDictionary { return name }
        switch options.keyEncoding.base {
        case .useDefaultKeys: return name
        case .snakeCase: return KeyTransform.separateWords(name, with: "_")
        case .kebabCase: return KeyTransform.separateWords(name, with: "-")
        case .capitalized: return name.prefix(1).uppercased() + name.dropFirst()
        case .lowercased: return name.lowercased()
        case .uppercased: return name.uppercased()
        case .custom(let transform): return transform(name)
        }
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let encoding: FormEncoding
    var codingPath: [any CodingKey] { encoding.codingPath }

    private func child(_ key: Key) -> FormEncoding {
        encoding.child(encoding.node.addEntry(encoding.name(for: key)), key: key)
    }

    mutating func encodeNil(forKey key: Key) throws { child(key).node.kind = .null }
    mutating func encode(_ value: Bool, forKey key: Key) throws { child(key).writeBool(value) }
    mutating func encode(_ value: String, forKey key: Key) throws { child(key).node.set(value) }
    mutating func encode(_ value: Double, forKey key: Key) throws { try child(key).writeFloatingPoint(value) }
    mutating func encode(_ value: Float, forKey key: Key) throws { try child(key).writeFloatingPoint(value) }
    mutating func encode(_ value: Int, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { child(key).node.set(String(value)) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws { try child(key).box(value) }

    // Synthesized conformances skip `nil` through these; routing them to
    // `encodeNil` is what lets the nil strategy see optional properties.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, forKey: key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, forKey key: Key) throws {
        if let value { try child(key).box(value) } else { try encodeNil(forKey: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        child(key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        child(key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        encoding.child(encoding.node.addEntry("super"), key: FormKey(stringValue: "super"))
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder { child(key) }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let encoding: FormEncoding
    var codingPath: [any CodingKey] { encoding.codingPath }
    var count: Int { encoding.node.elements.count }

    private func next() -> FormEncoding {
        let key = FormKey(intValue: count)
        return encoding.child(encoding.node.addElement(), key: key)
    }

    mutating func encodeNil() throws { next().node.kind = .null }
    mutating func encode<T: Encodable>(_ value: T) throws { try next().box(value) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        next().container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { next().unkeyedContainer() }
    mutating func superEncoder() -> any Encoder { next() }
}

private struct SingleValueContainer: SingleValueEncodingContainer {
    let encoding: FormEncoding
    var codingPath: [any CodingKey] { encoding.codingPath }

    mutating func encodeNil() throws { encoding.node.kind = .null }
    mutating func encode(_ value: Bool) throws { encoding.writeBool(value) }
    mutating func encode(_ value: String) throws { encoding.node.set(value) }
    mutating func encode(_ value: Double) throws { try encoding.writeFloatingPoint(value) }
    mutating func encode(_ value: Float) throws { try encoding.writeFloatingPoint(value) }
    mutating func encode(_ value: Int) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: Int8) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: Int16) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: Int32) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: Int64) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: UInt) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: UInt8) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: UInt16) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: UInt32) throws { encoding.node.set(String(value)) }
    mutating func encode(_ value: UInt64) throws { encoding.node.set(String(value)) }
    mutating func encode<T: Encodable>(_ value: T) throws { try encoding.box(value) }
}

/// Property-name transforms that split words at case changes.
enum KeyTransform {
    /// `myURLValue` to `my_url_value`: a separator before an uppercase letter
    /// that follows a lowercase letter or digit, or that starts a word after
    /// an acronym; everything lowercased.
    static func separateWords(_ name: String, with separator: Character) -> String {
        let characters = Array(name)
        var result = ""
        for (index, character) in characters.enumerated() {
            guard character.isUppercase else {
                result.append(character)
                continue
            }
            if index > 0 {
                let previous = characters[index - 1]
                let nextIsLowercase = index + 1 < characters.count && characters[index + 1].isLowercase
                if previous.isLowercase || previous.isNumber || (previous.isUppercase && nextIsLowercase) {
                    result.append(separator)
                }
            }
            result += character.lowercased()
        }
        return result
    }
}
