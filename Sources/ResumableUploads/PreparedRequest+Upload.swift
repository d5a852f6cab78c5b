import Foundation
import HTTPBody
import HTTPTypes
import RequestBuilder

extension PreparedRequest {
    /// The fields to carry from the request an upload began with into the
    /// requests that continue it (credentials, custom fields): all but
    /// those that describe the original body, how it is sent, and the target.
    var carriedFields: HTTPFields {
        var fields = HTTPFields()
        let dropped: Set<HTTPField.Name> = [.contentType, .contentLength, .contentEncoding, .transferEncoding, .expect, .hostField]
        for field in head.headerFields where !dropped.contains(field.name) {
            fields.append(field)
        }
        return fields
    }

    /// A request to `url` that continues an upload: the carried fields with
    /// `fields` set on top, and `body`, with this request's timeout. Built
    /// through ``HTTPRequestBuilder`` like every request, so the URL a server
    /// handed back is checked as any base URL is.
    func continuation(
        _ method: HTTPRequest.Method,
        to url: URL,
        fields: HTTPFields,
        body: RequestBody? = nil,
        acceptableStatus: AcceptableStatus = .any
    ) throws(RequestError) -> PreparedRequest {
        var headers = carriedFields
        // A Location on another origin is another party: it gets no
        // credentials, as a redirect that leaves the scheme, host and port
        // would not (the contract's redirect rule; URL credentials travel
        // as Authorization).
        if let origin = self.url, HTTPOrigin(origin) != HTTPOrigin(url) {
            for name in redaction.credentialNames(in: headers) { headers[name] = nil }
        }
        for field in fields {
            headers[field.name] = field.value
        }
        // The server made the upload resource, so it takes the body: an
        // append goes at once, never held for `100 Continue`.
        var builder = HTTPRequestBuilder(method, url).headers(headers).acceptingStatus(acceptableStatus).redacting(redaction)
            .waitingForContinue(false)
        if let body { builder = builder.body(body) }
        if let timeout { builder = builder.timeout(timeout) }
        return try builder.build()
    }
}
