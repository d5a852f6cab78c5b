/// Names the type from the filename's extension alone, without looking at the bytes.
public struct ExtensionMediaTypeSniffer: MediaTypeSniffer {
    /// Creates the extension sniffer.
    public init() {}

    /// See ``MediaTypeSniffer/mediaType(of:)``.
    public func mediaType(of sample: MediaTypeSample) -> MediaType? {
        ExtensionTable.mediaType(forExtension: sample.fileExtension)
    }
}

extension MediaTypeSniffer where Self == ExtensionMediaTypeSniffer {
    /// The filename's extension alone.
    public static var extensions: ExtensionMediaTypeSniffer { ExtensionMediaTypeSniffer() }
}
