public import Foundation

extension URLEncodedFormEncoder {
    /// How array elements are named.
    public struct ArrayEncoding: Sendable, Hashable {
        enum Base: Hashable { case brackets, indexInBrackets, noBrackets }
        let base: Base

        /// `a[]=1&a[]=2` (Rails, PHP).
        public static let brackets = ArrayEncoding(base: .brackets)
        /// `a[0]=1&a[1]=2`.
        public static let indexInBrackets = ArrayEncoding(base: .indexInBrackets)
        /// `a=1&a=2` (Go, Java servlets).
        public static let noBrackets = ArrayEncoding(base: .noBrackets)
    }

    /// How `Bool` values are written.
    public struct BoolEncoding: Sendable, Hashable {
        enum Base: Hashable { case numeric, literal }
        let base: Base

        /// `1` and `0`.
        public static let numeric = BoolEncoding(base: .numeric)
        /// `true` and `false`.
        public static let literal = BoolEncoding(base: .literal)
    }

    /// How `Date` values are written.
    public struct DateEncoding: Sendable {
        enum Base: Sendable {
            case deferredToDate, secondsSince1970, millisecondsSince1970, iso8601
            case custom(@Sendable (Date) throws -> String)
        }
        let base: Base

        /// Whatever `Date`'s own `Encodable` conformance writes (seconds since 2001).
        public static let deferredToDate = DateEncoding(base: .deferredToDate)
        /// Seconds since 1970, as an integer when whole (`1700000000`), else a decimal.
        public static let secondsSince1970 = DateEncoding(base: .secondsSince1970)
        /// Milliseconds since 1970, as an integer when whole (`1700000000123`).
        public static let millisecondsSince1970 = DateEncoding(base: .millisecondsSince1970)
        /// ISO 8601 in UTC to the second: `2023-11-14T22:13:20Z`.
        public static let iso8601 = DateEncoding(base: .iso8601)
        /// Your own text for each date; an error it throws names the key path.
        public static func custom(_ format: @escaping @Sendable (Date) throws -> String) -> DateEncoding {
            DateEncoding(base: .custom(format))
        }
    }

    /// How `Data` values are written.
    public struct DataEncoding: Sendable {
        enum Base: Sendable {
            case deferredToData, base64
            case custom(@Sendable (Data) throws -> String)
        }
        let base: Base

        /// Whatever `Data`'s own `Encodable` conformance writes (a list of byte values).
        public static let deferredToData = DataEncoding(base: .deferredToData)
        /// Standard Base64 with padding (RFC 4648, section 4).
        public static let base64 = DataEncoding(base: .base64)
        /// Your own text for each value; an error it throws names the key path.
        public static func custom(_ format: @escaping @Sendable (Data) throws -> String) -> DataEncoding {
            DataEncoding(base: .custom(format))
        }
    }

    /// How the names of a type's properties become keys. Dictionary keys are
    /// data, not property names, and are never transformed.
    public struct KeyEncoding: Sendable {
        enum Base: Sendable {
            case useDefaultKeys, snakeCase, kebabCase, capitalized, lowercased, uppercased
            case custom(@Sendable (String) -> String)
        }
        let base: Base

        /// Property names as they are.
        public static let useDefaultKeys = KeyEncoding(base: .useDefaultKeys)
        /// `userID` becomes `user_id`, `myURLValue` becomes `my_url_value`.
        public static let convertToSnakeCase = KeyEncoding(base: .snakeCase)
        /// `userID` becomes `user-id`.
        public static let convertToKebabCase = KeyEncoding(base: .kebabCase)
        /// `userName` becomes `UserName`.
        public static let capitalized = KeyEncoding(base: .capitalized)
        /// `userName` becomes `username`.
        public static let lowercased = KeyEncoding(base: .lowercased)
        /// `userName` becomes `USERNAME`.
        public static let uppercased = KeyEncoding(base: .uppercased)
        /// Your own transform of each property name.
        public static func custom(_ transform: @escaping @Sendable (String) -> String) -> KeyEncoding {
            KeyEncoding(base: .custom(transform))
        }
    }

    /// How `nil` values are written.
    public struct NilEncoding: Sendable, Hashable {
        enum Base: Hashable { case dropKey, dropValue, keyOnly, null }
        let base: Base

        /// Left out entirely.
        public static let dropKey = NilEncoding(base: .dropKey)
        /// The key with an empty value: `a=`.
        public static let dropValue = NilEncoding(base: .dropValue)
        /// The key alone, without `=`: `a`.
        public static let keyOnly = NilEncoding(base: .keyOnly)
        /// The key with the text `null`: `a=null`.
        public static let null = NilEncoding(base: .null)
    }

    /// The order of keys in the output.
    public struct KeyOrdering: Sendable, Hashable {
        enum Base: Hashable { case given, sorted }
        let base: Base

        /// The order the value encodes its keys in (a struct's declaration
        /// order). Dictionaries, whose order Swift varies from run to run, are
        /// always sorted, so the output is the same for the same input.
        public static let given = KeyOrdering(base: .given)
        /// Sorted by UTF-8 bytes at each level; array elements keep their order.
        public static let sorted = KeyOrdering(base: .sorted)
    }

    /// How a space is written.
    public struct SpaceEncoding: Sendable, Hashable {
        enum Base: Hashable { case percentEscaped, plusReplaced }
        let base: Base

        /// `%20`, as RFC 3986 percent-encoding has it.
        public static let percentEscaped = SpaceEncoding(base: .percentEscaped)
        /// `+`, as HTML forms send it (WHATWG URL standard).
        public static let plusReplaced = SpaceEncoding(base: .plusReplaced)
    }
}
