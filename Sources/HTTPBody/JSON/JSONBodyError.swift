import Foundation

/// Why a value could not be encoded as JSON, or a text is not valid JSON.
/// Each description names the field (its coding path) or the position at fault.
public struct JSONBodyError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// A value JSON cannot represent, such as a non-finite `Double`.
        public static let invalidValue = Code("invalidValue")
        /// A text given as raw JSON is not valid JSON (RFC 8259).
        public static let invalidRawJSON = Code("invalidRawJSON")
    }

    /// The kind of failure.
    public let code: Code
    /// Where the failure is: a coding path such as `items[2].price`, or a
    /// position such as `line 1, column 7` in a raw JSON text.
    public let location: String
    /// A sentence that says what went wrong and names the field at fault.
    public let description: String

    static func invalidValue(at path: String, reason: String) -> Self {
        Self(code: .invalidValue, location: path, description: "Cannot encode the value at \(path) as JSON: \(reason)")
    }

    static func invalidRawJSON(_ problem: String, line: Int, column: Int) -> Self {
        let location = "line \(line), column \(column)"
        return Self(code: .invalidRawJSON, location: location, description: "Invalid JSON at \(location): \(problem)")
    }
}
