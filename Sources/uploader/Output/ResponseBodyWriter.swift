import HTTPTypes
import RequestBuilder

/// Writes a response body to its destination: streamed as it arrives, or,
/// for a JSON body that `--pretty` asks to show, held until it is complete
/// (up to ``maximumFormattedLength``) and written formatted.
struct ResponseBodyWriter {
    /// The most of a JSON body held for formatting. A body known to be
    /// larger is streamed as sent from its first byte; one that turns out
    /// larger is written as sent from the moment it passes this, so memory
    /// stays bounded whatever the server sends.
    static let maximumFormattedLength = 4 * 1024 * 1024

    let style: PrettyStyle
    /// Whether the destination is a terminal, which is never given bytes
    /// that are not text (``TerminalBinaryFilter``).
    var screensBinary = false

    /// Writes `body`, whose response carried `headerFields`, to `destination`.
    func write(_ body: ResponseBody, headerFields: HTTPFields, to destination: OutputFile) async throws {
        if screensBinary, !(style != .none && PrettyStyle.isJSON(contentType: headerFields[.contentType])) {
            var filter = TerminalBinaryFilter()
            for try await chunk in body { try destination.write(filter.pass(chunk)) }
            if let note = filter.note(contentType: headerFields[.contentType]) {
                TerminalLine.endOpenOutputLine()
                try destination.write(Array(note.utf8))
            }
            return
        }
        let declaredLength = headerFields[.contentLength].flatMap { Int($0) }
        guard style != .none, PrettyStyle.isJSON(contentType: headerFields[.contentType]),
              (declaredLength ?? 0) <= Self.maximumFormattedLength
        else {
            for try await chunk in body { try destination.write(chunk) }
            return
        }
        var held: [UInt8] = []
        var iterator = body.makeAsyncIterator()
        while let chunk = try await iterator.next() {
            guard held.count + chunk.count <= Self.maximumFormattedLength else {
                // Too large to format: what is held, then the rest, as sent.
                try destination.write(held)
                try destination.write(chunk)
                while let chunk = try await iterator.next() { try destination.write(chunk) }
                return
            }
            held += chunk
        }
        let printer = JSONPrettyPrinter(indents: style.indents, colours: style.colours)
        try destination.write(printer.format(held) ?? held)
    }
}
