public import Foundation

/// Finds the media type of some content from its first bytes (and, as a last
/// resort, its filename).
///
/// Choose one with a static member: ``standard`` (signature table, then
/// libmagic, then the extension), ``signatures``, ``libmagic`` or
/// ``extensions``. An explicit type given by the caller always wins over any
/// sniffer; sniffers only run when no type was given.
public protocol MediaTypeSniffer: Sendable {
    /// The media type the sample indicates, or `nil` when this sniffer cannot tell.
    func mediaType(of sample: MediaTypeSample) -> MediaType?
}

/// What a sniffer looks at: the first bytes of some content and its filename.
public struct MediaTypeSample: Sendable {
    /// How many leading bytes are read from a file to sniff it: enough for
    /// every signature and for libmagic's tests on text, and cheap to read.
    public static let preferredLength = 8192

    /// The first bytes of the content, at most ``preferredLength``.
    public var prefix: [UInt8]
    /// The filename the content goes by, if any; only its extension is used.
    public var filename: String?
    /// Whether ``prefix`` holds the whole content.
    public var isComplete: Bool

    /// Creates a sample from the start of some content; bytes past
    /// ``preferredLength`` are ignored.
    public init(prefix: some Collection<UInt8>, filename: String? = nil, isComplete: Bool? = nil) {
        let bytes = Array(prefix.prefix(Self.preferredLength))
        self.prefix = bytes
        self.filename = filename
        self.isComplete = isComplete ?? (bytes.count == prefix.count)
    }

    /// The filename's extension, lowercased, without the dot; `nil` when there is none.
    /// A leading dot (`.bashrc`) starts a hidden name, not an extension.
    public var fileExtension: String? {
        guard let filename else { return nil }
        let base = filename.split(separator: "/", omittingEmptySubsequences: false).last ?? Substring(filename)
        guard let dot = base.lastIndex(of: "."), dot > base.startIndex else { return nil }
        let ext = base[base.index(after: dot)...]
        return ext.isEmpty ? nil : ext.lowercased()
    }
}

extension MediaTypeSniffer {
    /// Sniffs a file from its first ``MediaTypeSample/preferredLength`` bytes;
    /// the rest of the file is not read.
    ///
    /// - Throws: ``RequestBodyError`` naming the file when it cannot be read.
    public func mediaType(ofFileAt url: URL) throws(RequestBodyError) -> MediaType? {
        let location = FileLocation(url)
        return try mediaType(of: FileReader(measuring: location), at: location)
    }

    /// Sniffs a file opened at `location` from its first
    /// ``MediaTypeSample/preferredLength`` bytes.
    package func mediaType(of file: FileReader, at location: FileLocation) throws(RequestBodyError) -> MediaType? {
        let prefix = try file.readSample(maximumLength: MediaTypeSample.preferredLength)
        let isComplete = Int64(prefix.count) == file.expectedLength
        return mediaType(of: MediaTypeSample(prefix: prefix, filename: location.baseNameText, isComplete: isComplete))
    }
}
