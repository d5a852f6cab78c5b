/// The default sniffer: the built-in signature table for the common binary
/// formats, then libmagic for everything else, then the filename's extension.
///
/// JSON and CSV are named by their extension when the content is text, since
/// content alone cannot tell a CSV file from plain text reliably.
public struct StandardMediaTypeSniffer: MediaTypeSniffer {
    /// Creates the standard sniffer.
    public init() {}

    /// See ``MediaTypeSniffer/mediaType(of:)``.
    public func mediaType(of sample: MediaTypeSample) -> MediaType? {
        guard !sample.prefix.isEmpty else {
            return ExtensionTable.mediaType(forExtension: sample.fileExtension)  // no content to look at
        }
        if let match = SignatureTable.match(sample.prefix) { return match }
        let magic = MagicDatabase.shared?.mediaType(of: sample.prefix)
        let isText = magic?.isTextual == true || SignatureTable.looksLikeText(sample.prefix)
        if isText, let named = ExtensionTable.textMediaType(forExtension: sample.fileExtension) {
            return named
        }
        if let magic, magic != .octetStream { return magic }
        // A text format's extension on bytes that are not text would be a lie.
        if let named = ExtensionTable.mediaType(forExtension: sample.fileExtension), isText || !named.isTextual {
            return named
        }
        return isText ? MediaType(type: "text", subtype: "plain") : magic
    }
}

extension MediaTypeSniffer where Self == StandardMediaTypeSniffer {
    /// The signature table, then libmagic, then the filename's extension.
    public static var standard: StandardMediaTypeSniffer { StandardMediaTypeSniffer() }
}
