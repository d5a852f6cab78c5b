/// An element of the small XML documents S3 answers with
/// (`InitiateMultipartUploadResult`, `ListPartsResult`, `Error`, ...): its
/// name without a namespace prefix, its text and its child elements.
///
/// Read by ``S3XMLElement/parse(_:)``, a reader of exactly what these
/// answers use: elements, text, the five named entities, numeric character
/// references, comments, CDATA and a declaration. Foundation's `XMLParser`
/// is not used on purpose: on Linux it lives in FoundationXML, which links
/// libxml2 into every program that sends to S3 (the statically linked
/// uploader among them), for a few flat documents.
struct S3XMLElement: Sendable, Equatable {
    /// The local name (`Part`, not `s3:Part`).
    var name: String
    /// The element's own text, entities decoded (children's text excluded).
    var text: String
    /// The child elements, in document order.
    var children: [S3XMLElement]

    /// The first child named `name`.
    func child(_ name: String) -> S3XMLElement? {
        children.first { $0.name == name }
    }

    /// Every child named `name`, in order.
    func children(named name: String) -> [S3XMLElement] {
        children.filter { $0.name == name }
    }

    /// The text of the first child named `name`, trimmed of surrounding white space.
    func text(of name: String) -> String? {
        child(name).map { $0.text.trimmingWhitespace }
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and line ends.
    var trimmingWhitespace: String {
        let isSpace: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard let start = firstIndex(where: { !isSpace($0) }), let end = lastIndex(where: { !isSpace($0) }) else { return "" }
        return String(self[start...end])
    }
}
