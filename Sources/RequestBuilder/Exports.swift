// RequestBuilder builds on HTTPBody's encoders and swift-http-types' heads;
// re-exporting them saves every caller two imports.
@_exported public import HTTPBody
@_exported public import HTTPTypes
