/// A media type such as `application/json` or `multipart/form-data; boundary=x`
/// (RFC 9110, section 8.3.1).
///
/// The type and subtype are stored lowercased, as they compare case-insensitively;
/// parameter order is kept so that serialization is deterministic.
public struct MediaType: Sendable, Hashable, CustomStringConvertible {
    /// One `name=value` parameter of a media type.
    public struct Parameter: Sendable, Hashable {
        /// The parameter name, lowercased.
        public var name: String
        /// The parameter value, unquoted.
        public var value: String

        /// Creates a parameter; the name is lowercased.
        public init(name: String, value: String) {
            self.name = name.lowercased()
            self.value = value
        }
    }

    /// The top-level type, such as `image`.
    public var type: String
    /// The subtype, such as `png`.
    public var subtype: String
    /// The parameters in the order they are written.
    public var parameters: [Parameter]

    /// Creates a media type from its parts; type and subtype are lowercased.
    public init(type: String, subtype: String, parameters: [Parameter] = []) {
        self.type = type.lowercased()
        self.subtype = subtype.lowercased()
        self.parameters = parameters
    }

    /// Parses a media type such as `text/plain; charset="utf-8"`.
    ///
    /// Returns `nil` when the text is not `token/token` followed by
    /// well-formed parameters.
    public init?(_ text: String) {
        var scanner = MediaTypeScanner(text)
        guard let type = scanner.token(), scanner.consume("/"), let subtype = scanner.token() else {
            return nil
        }
        var parameters: [Parameter] = []
        scanner.skipWhitespace()
        while scanner.consume(";") {
            scanner.skipWhitespace()
            if scanner.isAtEnd { break }
            guard let name = scanner.token(), scanner.consume("="), let value = scanner.tokenOrQuotedString() else {
                return nil
            }
            parameters.append(Parameter(name: name, value: value))
            scanner.skipWhitespace()
        }
        guard scanner.isAtEnd else { return nil }
        self.init(type: type, subtype: subtype, parameters: parameters)
    }

    /// `type/subtype` without parameters, the part that names the format.
    public var essence: String { "\(type)/\(subtype)" }

    /// The value of the named parameter, if present.
    public subscript(parameter name: String) -> String? {
        let name = name.lowercased()
        return parameters.first { $0.name == name }?.value
    }

    /// A copy with the named parameter set (replacing an existing one in place).
    public func setting(_ name: String, to value: String) -> MediaType {
        var copy = self
        let parameter = Parameter(name: name, value: value)
        if let index = copy.parameters.firstIndex(where: { $0.name == parameter.name }) {
            copy.parameters[index] = parameter
        } else {
            copy.parameters.append(parameter)
        }
        return copy
    }

    /// The header value: `type/subtype; name=value`, quoting values that are not tokens.
    public var description: String {
        var text = essence
        for parameter in parameters {
            text += "; \(parameter.name)="
            if MediaTypeScanner.isToken(parameter.value) {
                text += parameter.value
            } else {
                text += "\""
                for character in parameter.value {
                    if character == "\"" || character == "\\" { text += "\\" }
                    text.append(character)
                }
                text += "\""
            }
        }
        return text
    }
}

extension MediaType {
    /// `application/json`.
    public static let json = MediaType(type: "application", subtype: "json")
    /// `application/x-www-form-urlencoded`.
    public static let formURLEncoded = MediaType(type: "application", subtype: "x-www-form-urlencoded")
    /// `application/octet-stream`, for bytes of unknown type.
    public static let octetStream = MediaType(type: "application", subtype: "octet-stream")
    /// `text/plain; charset=utf-8`.
    public static let plainText = MediaType(type: "text", subtype: "plain", parameters: [.init(name: "charset", value: "utf-8")])

    /// `multipart/form-data; boundary=…` (RFC 7578).
    public static func multipartFormData(boundary: String) -> MediaType {
        MediaType(type: "multipart", subtype: "form-data", parameters: [.init(name: "boundary", value: boundary)])
    }
}

/// A small cursor over the characters of a media type (RFC 9110, section 5.6).
private struct MediaTypeScanner {
    private let scalars: [Unicode.Scalar]
    private var index = 0

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        skipWhitespace()
    }

    var isAtEnd: Bool { index == scalars.count }

    static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9": true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }

    static func isToken(_ text: String) -> Bool {
        !text.isEmpty && text.unicodeScalars.allSatisfy(isTokenCharacter)
    }

    mutating func skipWhitespace() {
        while index < scalars.count, scalars[index] == " " || scalars[index] == "\t" { index += 1 }
    }

    mutating func consume(_ scalar: Unicode.Scalar) -> Bool {
        guard index < scalars.count, scalars[index] == scalar else { return false }
        index += 1
        return true
    }

    mutating func token() -> String? {
        let start = index
        while index < scalars.count, Self.isTokenCharacter(scalars[index]) { index += 1 }
        guard index > start else { return nil }
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<index])
        return text
    }

    mutating func tokenOrQuotedString() -> String? {
        guard consume("\"") else { return token() }
        var text = ""
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            switch scalar {
            case "\"":
                return text
            case "\\":
                guard index < scalars.count else { return nil }
                text.unicodeScalars.append(scalars[index])
                index += 1
            default:
                text.unicodeScalars.append(scalar)
            }
        }
        return nil
    }
}
