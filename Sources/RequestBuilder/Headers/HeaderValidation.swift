import HTTPTypes

/// Checks header names and values before they become `HTTPField`s.
///
/// `HTTPField` quietly replaces bytes a field value cannot carry (CR, LF,
/// NUL) with spaces, which would turn an injected header into a silently
/// altered one; checking first turns it into an error that names the header.
enum HeaderValidation {
    /// A field name, checked against RFC 9110's `token` grammar.
    static func name(_ name: String) throws(RequestError) -> HTTPField.Name {
        guard let fieldName = HTTPField.Name(name) else {
            throw RequestError.invalidRequest(
                "The header name \(name.debugDescription) is not a valid field name (RFC 9110, section 5.1: letters, digits and !#$%&'*+-.^_`|~ only)"
            )
        }
        return fieldName
    }

    /// A field, with its value checked against RFC 9110's `field-value` grammar.
    static func field(_ name: HTTPField.Name, _ value: String) throws(RequestError) -> HTTPField {
        guard HTTPField.isValidValue(value) else {
            throw RequestError.invalidRequest(
                "The value of header \(name.rawName) has a line break, NUL or other control character, or leading or trailing whitespace (RFC 9110, section 5.5)"
            )
        }
        return HTTPField(name: name, value: value)
    }

    /// Framing fields come from the body; a request that set its own could
    /// disagree with the bytes it sends. (A `Host` field is allowed: it
    /// replaces the authority in the Host line, as curl's `-H Host:` does.)
    static func checkNotFraming(_ fields: HTTPFields) throws(RequestError) {
        for field in fields where field.name == .contentLength || field.name == .transferEncoding {
            throw RequestError.invalidRequest(
                "The header \(field.name.rawName) is set from the body; remove it from the request's header fields"
            )
        }
    }
}
