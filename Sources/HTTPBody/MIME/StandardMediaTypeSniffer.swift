/// The default sniffer: the built-in signature table for the common binary
/// formats, then libmagic for everything else, then the filename's extension.
///
/// Text is named by a text extension it carries (`.txt`, `.md`, `.json`,
/// `.csv`, `.html`, `.xml`, `.sh`, `.py` and a few more) once its first bytes
/// prove to be text, as browsers, curl and HTTPie name it: content alone
/// cannot tell a CSV file from plain text, and libmagic's guesses about text
/// cost hundreds of microseconds a file. JSON must also parse when the whole
/// file is at hand. Text without such an extension, and every binary format
/// the table does not know, go to libmagic.
public struct StandardMediaTypeSniffer: MediaTypeSniffer {
    /// Creates the standard sniffer.
    public init() {}

    /// See ``MediaTypeSniffer/mediaType(of:)``.
    public func mediaType(of sample: MediaTypeSample) -> MediaType? {
        guard !sample.prefix.isEmpty else {
            return ExtensionTable.mediaType(forExtension: sample.fileExtension)  // no content to look at
        }
        if let match = SignatureTable.match(sample.prefix) {
            return ExtensionTable.zipContainerType(forExtension: sample.fileExtension, of: match) ?? match
        }
        let named = ExtensionTable.textMediaType(forExtension: sample.fileExtension).flatMap { type in
            Self.content(of: sample, agreesWith: type) ? type : nil
        }
        // Text named by a text extension needs no libmagic.
        let looksLikeText = SignatureTable.looksLikeText(sample.prefix)
        if looksLikeText, let named { return named }
        let magic = MagicDatabase.shared?.mediaType(of: sample.prefix)
        let isText = magic?.isTextual == true || looksLikeText
        if isText, let named { return named }
        if let magic, magic != .octetStream { return magic }
        // A text format's extension on bytes that are not text would be a lie.
        if let named = ExtensionTable.mediaType(forExtension: sample.fileExtension), isText || !named.isTextual {
            return named
        }
        return isText ? MediaType(type: "text", subtype: "plain") : magic
    }
}

extension StandardMediaTypeSniffer {
    /// Whether text content fits the format its extension names: JSON must
    /// parse when the whole of it is at hand (a longer file's prefix cannot be
    /// checked, so its extension is believed); CSV and TSV take any text.
    static func content(of sample: MediaTypeSample, agreesWith type: MediaType) -> Bool {
        guard type.essence == "application/json", sample.isComplete else { return true }
        return (try? RawJSON(validating: String(decoding: sample.prefix, as: UTF8.self))) != nil
    }
}

extension MediaTypeSniffer where Self == StandardMediaTypeSniffer {
    /// The signature table, then libmagic, then the filename's extension.
    public static var standard: StandardMediaTypeSniffer { StandardMediaTypeSniffer() }
}
