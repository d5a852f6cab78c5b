import HTTPTypes
import UploaderItems

extension HTTPResponse {
    /// The status line and header fields, as HTTP/1.1 writes them (with
    /// `version` in the status line, HTTP/1.1 unless the transport said),
    /// the server's text escaped so it cannot drive the terminal.
    func headText(version: String? = nil) -> String {
        var text = "\(version ?? "HTTP/1.1") \(status.code) \(status.reasonPhrase.escapedForMessage)\r\n"
        for field in headerFields {
            text += "\(field.name.rawName): \(field.value.escapedForMessage)\r\n"
        }
        return text + "\r\n"
    }
}
