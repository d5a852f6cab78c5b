/// Media types by filename extension: the last resort when the content does
/// not tell, and the way JSON and CSV are named when the content is text.
enum ExtensionTable {
    private static let types: [String: MediaType] = {
        let pairs: [(String, String, String)] = [
            ("txt", "text", "plain"), ("text", "text", "plain"), ("log", "text", "plain"),
            ("html", "text", "html"), ("htm", "text", "html"), ("css", "text", "css"),
            ("js", "text", "javascript"), ("mjs", "text", "javascript"),
            ("json", "application", "json"), ("csv", "text", "csv"), ("tsv", "text", "tab-separated-values"),
            ("xml", "application", "xml"), ("svg", "image", "svg+xml"), ("md", "text", "markdown"),
            ("yaml", "application", "yaml"), ("yml", "application", "yaml"),
            ("png", "image", "png"), ("jpg", "image", "jpeg"), ("jpeg", "image", "jpeg"), ("gif", "image", "gif"),
            ("webp", "image", "webp"), ("bmp", "image", "bmp"), ("ico", "image", "vnd.microsoft.icon"),
            ("tif", "image", "tiff"), ("tiff", "image", "tiff"), ("heic", "image", "heic"), ("avif", "image", "avif"),
            ("pdf", "application", "pdf"), ("zip", "application", "zip"), ("gz", "application", "gzip"),
            ("tgz", "application", "gzip"), ("bz2", "application", "x-bzip2"), ("xz", "application", "x-xz"),
            ("7z", "application", "x-7z-compressed"), ("zst", "application", "zstd"), ("tar", "application", "x-tar"),
            ("rar", "application", "x-rar"), ("mp3", "audio", "mpeg"), ("m4a", "audio", "mp4"),
            ("wav", "audio", "x-wav"), ("ogg", "audio", "ogg"), ("flac", "audio", "flac"),
            ("mp4", "video", "mp4"), ("m4v", "video", "mp4"), ("mov", "video", "quicktime"),
            ("webm", "video", "webm"), ("avi", "video", "x-msvideo"), ("mkv", "video", "x-matroska"),
            ("woff", "font", "woff"), ("woff2", "font", "woff2"), ("ttf", "font", "sfnt"), ("otf", "font", "sfnt"),
            ("wasm", "application", "wasm"),
        ]
        return Dictionary(pairs.map { ($0.0, MediaType(type: $0.1, subtype: $0.2)) }, uniquingKeysWith: { first, _ in first })
    }()

    /// The type for an extension (lowercased, without the dot), if known.
    static func mediaType(forExtension fileExtension: String?) -> MediaType? {
        fileExtension.flatMap { types[$0] }
    }

    /// The type for an extension that names a text format more precisely than
    /// content sniffing can (JSON, CSV, TSV).
    static func textMediaType(forExtension fileExtension: String?) -> MediaType? {
        switch fileExtension {
        case "json", "csv", "tsv": mediaType(forExtension: fileExtension)
        default: nil
        }
    }
}

extension MediaType {
    /// Whether the format is text that any byte sequence with binary bytes cannot be.
    var isTextual: Bool {
        type == "text" || ["json", "xml", "yaml", "javascript"].contains(subtype) || subtype.hasSuffix("+xml") || subtype.hasSuffix("+json")
    }
}
