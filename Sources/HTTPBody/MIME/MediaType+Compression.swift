extension MediaType {
    /// Whether content of this type is already compressed, so deflating it
    /// again costs time and saves nothing: JPEG, PNG, GIF, WebP and other
    /// modern images, archives (zip, gzip, bzip2, xz, 7z, zstd, rar), web
    /// fonts, video, and audio except uncompressed WAV and AIFF.
    package var isAlreadyCompressed: Bool {
        switch type {
        case "video":
            return true
        case "audio":
            return !["wav", "x-wav", "wave", "vnd.wave", "aiff", "x-aiff"].contains(subtype)
        case "image":
            return ["jpeg", "png", "gif", "webp", "heic", "heif", "avif", "jp2"].contains(subtype)
        case "font":
            return subtype == "woff" || subtype == "woff2"
        case "application":
            return [
                "zip", "gzip", "x-gzip", "x-bzip2", "x-xz", "x-7z-compressed", "zstd", "x-rar",
                "x-rar-compressed", "vnd.rar", "java-archive", "epub+zip", "vnd.android.package-archive",
            ].contains(subtype) || subtype.hasPrefix("vnd.openxmlformats-officedocument.") || subtype.hasPrefix("vnd.oasis.opendocument.")
        default:
            return false
        }
    }
}
