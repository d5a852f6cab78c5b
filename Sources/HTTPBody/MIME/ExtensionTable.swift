/// Media types by filename extension: the last resort when the content does
/// not tell, and the way text formats are named when the content is text.
enum ExtensionTable {
    private static let types: [String: MediaType] = {
        let pairs: [(String, String, String)] = [
            ("txt", "text", "plain"), ("text", "text", "plain"), ("log", "text", "plain"),
            ("html", "text", "html"), ("htm", "text", "html"), ("css", "text", "css"),
            ("js", "text", "javascript"), ("mjs", "text", "javascript"),
            ("json", "application", "json"), ("csv", "text", "csv"), ("tsv", "text", "tab-separated-values"),
            ("xml", "text", "xml"), ("svg", "image", "svg+xml"), ("md", "text", "markdown"), ("markdown", "text", "markdown"),
            ("sh", "text", "x-shellscript"), ("bash", "text", "x-shellscript"), ("py", "text", "x-script.python"), ("pyi", "text", "x-script.python"),
            ("yaml", "application", "yaml"), ("yml", "application", "yaml"),
            // Source and configuration text, by libmagic's names for the same
            // files where it has one (`file --mime-type` on Debian's /usr/share).
            ("c", "text", "x-c"), ("h", "text", "x-c"), ("cc", "text", "x-c++"), ("cpp", "text", "x-c++"),
            ("cxx", "text", "x-c++"), ("hpp", "text", "x-c++"), ("hh", "text", "x-c++"),
            ("pl", "text", "x-perl"), ("pm", "text", "x-perl"), ("rb", "text", "x-ruby"), ("tcl", "text", "x-tcl"),
            ("java", "text", "x-java"), ("tex", "text", "x-tex"), ("po", "text", "x-po"),
            ("conf", "text", "plain"), ("ini", "text", "plain"), ("rst", "text", "plain"), ("vim", "text", "plain"),
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
        fileExtension.flatMap { types[$0] ?? zipContainers[$0] }
    }

    /// The type for an extension that names a text format, used when the
    /// content is text: the name says which text format more reliably than the
    /// bytes can (a CSV file is plain text to any sniffer), and trusting it
    /// spares libmagic's hundreds of microseconds per text file.
    ///
    /// Where libmagic has a name for the same format, the table uses it
    /// (`text/xml`, `text/x-shellscript`), so a file gets the same type
    /// whichever way it is recognised.
    static func textMediaType(forExtension fileExtension: String?) -> MediaType? {
        fileExtension.flatMap { textExtensions.contains($0) ? types[$0] : nil }
    }

    /// The format a zip archive is, by its extension: a `.jar` is a zip file
    /// with a manifest, sent as `application/java-archive`, an `.docx` an
    /// Office document. `nil` unless `match` is zip and the extension names
    /// one of these.
    static func zipContainerType(forExtension fileExtension: String?, of match: MediaType) -> MediaType? {
        guard match.essence == "application/zip", let fileExtension else { return nil }
        return zipContainers[fileExtension]
    }

    private static let zipContainers: [String: MediaType] = {
        let pairs: [(String, String)] = [
            ("jar", "java-archive"), ("war", "java-archive"), ("ear", "java-archive"),
            ("apk", "vnd.android.package-archive"), ("epub", "epub+zip"),
            ("docx", "vnd.openxmlformats-officedocument.wordprocessingml.document"),
            ("xlsx", "vnd.openxmlformats-officedocument.spreadsheetml.sheet"),
            ("pptx", "vnd.openxmlformats-officedocument.presentationml.presentation"),
            ("odt", "vnd.oasis.opendocument.text"), ("ods", "vnd.oasis.opendocument.spreadsheet"),
            ("odp", "vnd.oasis.opendocument.presentation"),
        ]
        return Dictionary(pairs.map { ($0.0, MediaType(type: "application", subtype: $0.1)) }, uniquingKeysWith: { first, _ in first })
    }()

    private static let textExtensions: Set<String> = [
        "txt", "text", "log", "md", "markdown", "json", "csv", "tsv", "html", "htm", "xml", "svg", "css",
        "js", "mjs", "yaml", "yml", "sh", "bash", "py", "pyi", "c", "h", "cc", "cpp", "cxx", "hpp", "hh",
        "pl", "pm", "rb", "tcl", "java", "tex", "po", "conf", "ini", "rst", "vim",
    ]
}

extension MediaType {
    /// Whether the format is text that any byte sequence with binary bytes cannot be.
    var isTextual: Bool {
        type == "text" || ["json", "xml", "yaml", "javascript"].contains(subtype) || subtype.hasSuffix("+xml") || subtype.hasSuffix("+json")
    }
}
