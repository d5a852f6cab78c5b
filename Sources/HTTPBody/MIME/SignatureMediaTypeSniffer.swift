/// Sniffs with the built-in signature table alone (the patterns of the WHATWG
/// MIME Sniffing standard), then its text-or-binary rule: `text/plain` when
/// no byte is binary, `application/octet-stream` otherwise.
public struct SignatureMediaTypeSniffer: MediaTypeSniffer {
    /// Creates the signature sniffer.
    public init() {}

    /// See ``MediaTypeSniffer/mediaType(of:)``.
    public func mediaType(of sample: MediaTypeSample) -> MediaType? {
        guard !sample.prefix.isEmpty else { return nil }
        if let match = SignatureTable.match(sample.prefix) { return match }
        return SignatureTable.looksLikeText(sample.prefix) ? MediaType(type: "text", subtype: "plain") : .octetStream
    }
}

extension MediaTypeSniffer where Self == SignatureMediaTypeSniffer {
    /// The built-in signature table and the text-or-binary rule; no libmagic, no extension.
    public static var signatures: SignatureMediaTypeSniffer { SignatureMediaTypeSniffer() }
}
