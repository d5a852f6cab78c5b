// The RequestBuilder module: HTTPTask, endpoints and the fluent builder (issue 4).
@_exported public import HTTPBody
