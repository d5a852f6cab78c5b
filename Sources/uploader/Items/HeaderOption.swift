import HTTPTypes
import RequestBuilder
import UploaderItems

/// `-H 'Name: value'`, read one way for every kind of upload.
enum HeaderOption {
    /// The name and value, spaces and tabs around them dropped. A request
    /// that goes through the builder checks them there.
    static func parse(_ header: String) throws(InputError) -> (name: String, value: String) {
        guard let colon = header.firstIndex(of: ":") else {
            throw InputError(.malformedItem, "-H '\(header.echoed)': expected 'Name: value'")
        }
        let name = String(header[..<colon].trimmingOptionalWhitespace)
        guard !name.isEmpty else { throw InputError(.malformedItem, "-H '\(header.echoed)': the header name is empty") }
        return (name, String(header[header.index(after: colon)...].trimmingOptionalWhitespace))
    }

    /// The headers as fields, each name and value checked, for the requests
    /// an `s3://` upload signs (their headers are given to the store's
    /// request functions as fields).
    static func fields(_ headers: [String]) throws(InputError) -> HTTPFields {
        var fields = HTTPFields()
        for header in headers {
            let (nameText, value) = try parse(header)
            guard let name = HTTPField.Name(nameText) else {
                throw InputError(.malformedItem, "-H '\(header.echoed)': '\(nameText.echoed)' is not a valid header name")
            }
            guard HTTPField.isValidValue(value) else {
                throw InputError(.malformedItem, "-H '\(header.echoed)': the value holds a line break or another forbidden character")
            }
            fields.append(HTTPField(name: name, value: value))
        }
        return fields
    }
}
