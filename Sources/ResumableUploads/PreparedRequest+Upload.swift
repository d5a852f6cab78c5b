import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

extension PreparedRequest {
    /// The fields to carry from the request an upload began with into the
    /// requests that continue it (credentials, custom fields): all but
    /// those that describe the original body and target.
    var carriedFields: HTTPFields {
        var fields = HTTPFields()
        let dropped: Set<HTTPField.Name> = [.contentType, .contentLength, .contentEncoding, .transferEncoding, .host]
        for field in head.headerFields where !dropped.contains(field.name) {
            fields.append(field)
        }
        return fields
    }

    /// A request to `url` that continues an upload: `fields` (set on top of
    /// the carried ones) and `body`, with this request's timeout.
    func continuation(
        _ method: HTTPRequest.Method,
        to url: URL,
        fields: HTTPFields,
        body: RequestBody? = nil,
        acceptableStatus: AcceptableStatus = .any
    ) throws(RequestError) -> PreparedRequest {
        var head = HTTPRequest(method: method, url: url)
        head.headerFields = carriedFields
        for field in fields {
            head.headerFields[field.name] = field.value
        }
        return try PreparedRequest(head: head, body: body, timeout: timeout, acceptableStatus: acceptableStatus)
    }
}
