/// Sniffs with libmagic alone (`MAGIC_MIME_TYPE` on the sample's first bytes).
///
/// The magic database is loaded on first use and closed again about 10 ms
/// after the last, so a program does not keep its pages once its files are
/// typed; calls from many tasks at once are safe and run in parallel, on up
/// to one handle per core (each mapping the 8 MiB database, opened only when
/// calls overlap).
public struct LibmagicMediaTypeSniffer: MediaTypeSniffer {
    /// Creates the libmagic sniffer.
    public init() {}

    /// See ``MediaTypeSniffer/mediaType(of:)``. `nil` for empty content or when
    /// the magic database could not be loaded.
    public func mediaType(of sample: MediaTypeSample) -> MediaType? {
        guard !sample.prefix.isEmpty else { return nil }
        return MagicDatabase.shared?.mediaType(of: sample.prefix)
    }
}

extension MediaTypeSniffer where Self == LibmagicMediaTypeSniffer {
    /// libmagic alone.
    public static var libmagic: LibmagicMediaTypeSniffer { LibmagicMediaTypeSniffer() }
}
