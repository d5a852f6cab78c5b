import Foundation

/// Why a value could not be form- or query-encoded. Each description names
/// the key path at fault, written as it would appear in the output
/// (`filters[color]`).
public struct URLEncodedFormError: DescribedError, Sendable, Hashable {
    /// The kind of failure, for code that reacts to it.
    public struct Code: ErrorCode {
        /// The code's name, as its static member is spelled.
        public let name: String
        private init(_ name: String) { self.name = name }

        /// The value is a single value or a list, not keyed fields; a form needs names.
        public static let topLevelNotKeyed = Code("topLevelNotKeyed")
        /// A dictionary's keys are not strings (nor convertible to them).
        public static let nonStringKey = Code("nonStringKey")
        /// A value a form cannot carry, such as a non-finite `Double`.
        public static let invalidValue = Code("invalidValue")
        /// A custom date or data strategy threw.
        public static let strategyFailed = Code("strategyFailed")
    }

    /// The kind of failure.
    public let code: Code
    /// The key path at fault, such as `filters[color]`; empty for the top level.
    public let keyPath: String
    /// A sentence that says what went wrong and names the key path at fault.
    public let description: String

    private static func place(_ keyPath: String) -> String {
        keyPath.isEmpty ? "the top-level value" : "the value at \(keyPath)"
    }

    static func topLevelNotKeyed(_ type: Any.Type, encodedAs kind: String) -> Self {
        Self(
            code: .topLevelNotKeyed, keyPath: "",
            description: "The top-level value of type \(type) encodes as \(kind), but form and query encoding need keyed fields (a struct or a [String: …] dictionary)"
        )
    }

    static func nonStringKey(at keyPath: String, keyType: Any.Type) -> Self {
        Self(
            code: .nonStringKey, keyPath: keyPath,
            description: "The dictionary at \(keyPath.isEmpty ? "the top level" : keyPath) has keys of type \(keyType), which are not strings; form and query encoding need String keys (or CodingKeyRepresentable ones)"
        )
    }

    static func invalidValue(at keyPath: String, reason: String) -> Self {
        Self(code: .invalidValue, keyPath: keyPath, description: "Cannot form-encode \(place(keyPath)): \(reason)")
    }

    static func strategyFailed(at keyPath: String, error: any Error) -> Self {
        Self(code: .strategyFailed, keyPath: keyPath, description: "The custom strategy failed for \(place(keyPath)): \(error)")
    }
}
