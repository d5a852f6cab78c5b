/// The default sniffer: the built-in signature table for the common binary
/// formats, then the text-or-binary byte check and the first line of text,
/// then libmagic for binary formats neither can answer, then the filename's
/// extension.
///
/// Text is named by a text extension it carries (`.txt`, `.md`, `.json`,
/// `.csv`, `.html`, `.xml`, `.c`, `.sh`, `.py` and a few more) once its first
/// bytes prove to be text (WHATWG's binary-or-text byte classes), as
/// browsers, curl and HTTPie name it: content alone cannot tell a CSV file
/// from plain text. JSON must also parse when the whole file is at hand.
/// Text without such an extension is named by what its first line announces
/// (an interpreter line, an XML declaration, an HTML tag, a troff request,
/// RTF, JSON or CSV, with libmagic's names), else `text/plain`: libmagic's
/// rules for text cost milliseconds a file and its database 9 MB of memory,
/// for finer guesses (C++, m4) no server needs. Binary formats the table does
/// not know go to libmagic; its weakest rules, which match arbitrary bytes
/// (a TGA image, a DOS `.com` program, an AAC stream), are believed only when
/// the extension agrees, so random data stays `application/octet-stream`.
public struct StandardMediaTypeSniffer: MediaTypeSniffer {
    /// Creates the standard sniffer.
    public init() {}

    /// See ``MediaTypeSniffer/mediaType(of:)``.
    public func mediaType(of sample: MediaTypeSample) -> MediaType? {
        answer(for: sample).mediaType
    }

    /// The media type of the sample and which of the sniffer's stages gave
    /// it, for a program that reports how its files were typed (the stages
    /// differ widely in cost: libmagic takes about a hundred times longer
    /// than the others).
    public func answer(for sample: MediaTypeSample) -> Answer {
        let fileExtension = sample.fileExtension
        guard !sample.prefix.isEmpty else {
            return Answer(ExtensionTable.mediaType(forExtension: fileExtension), .fileExtension)  // no content to look at
        }
        if let match = SignatureTable.match(sample.prefix) {
            return Answer(ExtensionTable.zipContainerType(forExtension: fileExtension, of: match) ?? match, .signature)
        }
        let extensionText = ExtensionTable.textMediaType(forExtension: fileExtension)
        let named = extensionText.flatMap { type in
            Self.content(of: sample, agreesWith: type) ? type : nil
        }
        // Text needs no libmagic: its text extension names it, or its first
        // line does (TextContentRules), or it is plain text. A binary
        // format's extension on text would be a lie, and so would a text
        // format's the content contradicts (JSON that does not parse).
        if SignatureTable.looksLikeText(sample.prefix) {
            if let named { return Answer(named, .textClassification) }
            if let announced = TextContentRules.mediaType(of: sample.prefix, isComplete: sample.isComplete) {
                return Answer(announced, .textClassification)
            }
            if extensionText == nil, let type = ExtensionTable.mediaType(forExtension: fileExtension), type.isTextual {
                return Answer(type, .fileExtension)
            }
            return Answer(MediaType(type: "text", subtype: "plain"), .textClassification)
        }
        let magic = MagicDatabase.shared?.mediaType(of: sample.prefix).map { type in
            WeakMagicRules.believes(type, for: sample.prefix, fileExtension: fileExtension) ? type : .octetStream
        }
        let isText = magic?.isTextual == true
        if isText, let named { return Answer(named, .libmagic) }
        if let magic, magic != .octetStream { return Answer(magic, .libmagic) }
        // A text format's extension on bytes that are not text would be a lie.
        if let named = ExtensionTable.mediaType(forExtension: fileExtension), isText || !named.isTextual {
            return Answer(named, .fileExtension)
        }
        if isText { return Answer(MediaType(type: "text", subtype: "plain"), .textClassification) }
        return Answer(magic, magic == nil ? .none : .libmagic)
    }
}

extension StandardMediaTypeSniffer {
    /// A media type and the stage of ``StandardMediaTypeSniffer`` that named it.
    public struct Answer: Sendable, Equatable {
        /// The type, or `nil` when no stage could tell (empty content
        /// without a known extension, or libmagic unavailable).
        public var mediaType: MediaType?
        /// The stage that gave ``mediaType``.
        public var stage: Stage

        /// Creates an answer.
        public init(_ mediaType: MediaType?, _ stage: Stage) {
            self.mediaType = mediaType
            self.stage = stage
        }
    }

    /// The stages of ``StandardMediaTypeSniffer``, cheapest first.
    public enum Stage: String, Sendable, CaseIterable {
        /// The built-in signature table matched the first bytes.
        case signature
        /// The bytes are text (no binary byte), named by a text extension or
        /// by what their first line announces, else `text/plain`.
        case textClassification = "text classification"
        /// libmagic named the content.
        case libmagic
        /// The content could not be typed; the filename's extension named it.
        case fileExtension = "extension"
        /// Nothing could tell.
        case none
    }

    /// Whether text content fits the format its extension names: JSON must
    /// parse when the whole of it is at hand (a longer file's prefix cannot be
    /// checked, so its extension is believed); CSV and TSV take any text.
    static func content(of sample: MediaTypeSample, agreesWith type: MediaType) -> Bool {
        guard type.essence == "application/json", sample.isComplete else { return true }
        return (try? RawJSON(validating: String(decoding: sample.prefix, as: UTF8.self))) != nil
    }
}

extension MediaTypeSniffer where Self == StandardMediaTypeSniffer {
    /// The signature table, the text check, libmagic, then the filename's extension.
    public static var standard: StandardMediaTypeSniffer { StandardMediaTypeSniffer() }
}
