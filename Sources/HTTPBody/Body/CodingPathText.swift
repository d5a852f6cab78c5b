/// A coding path written for people, in the notation of the format at hand:
/// the one renderer behind every error that names where an encoding or a
/// decoding failed.
package enum CodingPathText {
    /// The path as JSON paths are read, `items[2].price`; `the top level`
    /// when it is empty.
    package static func json(_ path: [any CodingKey]) -> String {
        guard !path.isEmpty else { return "the top level" }
        var text = ""
        for key in path {
            if let index = listIndex(key) {
                text += "[\(index)]"
            } else {
                text += text.isEmpty ? key.stringValue : ".\(key.stringValue)"
            }
        }
        return text
    }

    /// The path as form and query names are written, `items[2][price]`;
    /// empty for the top level.
    package static func form(_ path: [any CodingKey]) -> String {
        var text = ""
        for key in path {
            let name = listIndex(key).map(String.init) ?? key.stringValue
            text += text.isEmpty ? name : "[\(name)]"
        }
        return text
    }

    /// The index of a list element's key. Foundation names them `Index 2`;
    /// other encoders use the digits.
    private static func listIndex(_ key: any CodingKey) -> Int? {
        guard let index = key.intValue, key.stringValue == String(index) || key.stringValue.hasPrefix("Index ") else { return nil }
        return index
    }
}
