import Foundation
public import HTTPBody
public import HTTPTypes

extension HTTPField {
    /// A field from a name and value given as text, both validated first.
    ///
    /// - Throws: ``RequestError`` (``RequestError/Code/invalidRequest``) naming
    ///   the header when the name is not a token or the value holds CR, LF,
    ///   NUL or other forbidden characters.
    public static func validated(_ name: String, _ value: String) throws(RequestError) -> HTTPField {
        try HeaderValidation.field(HeaderValidation.name(name), value)
    }

    /// A field with a known name and a value validated first.
    public static func validated(_ name: HTTPField.Name, _ value: String) throws(RequestError) -> HTTPField {
        try HeaderValidation.field(name, value)
    }

    /// `Authorization: Bearer <token>` (RFC 6750).
    public static func authorization(bearer token: String) throws(RequestError) -> HTTPField {
        guard !token.isEmpty, !token.contains(where: \.isWhitespace) else {
            throw RequestError.invalidRequest("The bearer token for header Authorization is empty or has whitespace")
        }
        return try HeaderValidation.field(.authorization, "Bearer \(token)")
    }

    /// `Authorization: Basic <base64(username:password)>` (RFC 7617), UTF-8.
    public static func authorization(username: String, password: String) throws(RequestError) -> HTTPField {
        guard !username.contains(":" as Character) else {
            throw RequestError.invalidRequest("The user name for header Authorization has a colon, which Basic authentication cannot carry (RFC 7617)")
        }
        guard !"\(username)\(password)".unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else {
            throw RequestError.invalidRequest("The user name or password for header Authorization has control characters")
        }
        let credentials = Data("\(username):\(password)".utf8).base64EncodedString()
        return HTTPField(name: .authorization, value: "Basic \(credentials)")
    }

    /// `Content-Type`, overriding the type the body declares.
    public static func contentType(_ type: MediaType) throws(RequestError) -> HTTPField {
        try HeaderValidation.field(.contentType, type.description)
    }

    /// `Accept` listing the given media types in order of preference.
    public static func accept(_ types: MediaType...) throws(RequestError) -> HTTPField {
        try HeaderValidation.field(.accept, types.map(\.description).joined(separator: ", "))
    }

    /// `User-Agent`, such as `PhotoApp/2.1 (iOS 18)`.
    public static func userAgent(_ value: String) throws(RequestError) -> HTTPField {
        try HeaderValidation.field(.userAgent, value)
    }
}
