/// libmagic's rules that match arbitrary bytes, and when to believe them.
///
/// A few of libmagic's tests look at one or two bytes: a TGA image is any
/// file whose first bytes are a plausible TGA header (all 256 byte values in
/// order pass), a DOS `.com` program any file starting with a jump or move
/// instruction (`E9`, `B8`), an AAC or MPEG audio stream any file starting
/// with the 11 or 12 bits of a frame sync, zlib data any two bytes whose
/// check bits fit. About one file of random bytes in a hundred gets one of
/// these types (`file --mime-type` on 4,000 random files: 41), and the type then
/// reaches a server (S3 keeps it as the object's `Content-Type`). So such an
/// answer stands only when the filename says the same; otherwise the
/// content is unknown binary.
enum WeakMagicRules {
    /// The extensions that confirm each weak type.
    private static let confirmingExtensions: [String: Set<String>] = [
        "image/x-tga": ["tga", "icb", "vda", "vst"],
        "application/x-dosexec": ["com", "exe", "dll", "sys"],
        "audio/x-hx-aac-adts": ["aac", "adts"],
        "audio/x-mp4a-latm": ["latm", "loas"],
        "audio/mpeg": ["mp3", "mp2", "mpga"],
        "audio/x-syx": ["syx"],
        "application/zlib": ["zz", "zlib"],
        "application/marc": ["mrc", "marc"],
        "image/x-award-bioslogo": [],
    ]

    /// Whether libmagic's `type` for content starting with `prefix` can be
    /// believed: always, unless it comes from a weak rule the extension
    /// does not confirm. A DOS executable with its `MZ` header is a real
    /// signature, not the weak `.com` rule.
    static func believes(_ type: MediaType, for prefix: [UInt8], fileExtension: String?) -> Bool {
        guard let confirming = confirmingExtensions[type.essence] else { return true }
        if type.essence == "application/x-dosexec", prefix.starts(with: [0x4D, 0x5A]) { return true }
        return fileExtension.map(confirming.contains) ?? false
    }
}
