import CMagic
import Foundation

/// The process's one libmagic handle, loaded on first use.
///
/// `@unchecked Sendable` because a `magic_t` is not thread-safe: every call
/// on it goes through `lock`, and the handle never escapes this class.
final class MagicDatabase: @unchecked Sendable {
    /// The shared handle, or `nil` when libmagic or its database could not be loaded.
    static let shared: MagicDatabase? = MagicDatabase()

    private let lock = NSLock()
    private let cookie: OpaquePointer

    private init?() {
        guard let cookie = magic_open(MAGIC_MIME_TYPE) else { return nil }
        guard magic_load(cookie, nil) == 0 else {
            magic_close(cookie)
            return nil
        }
        self.cookie = cookie
    }

    deinit {
        magic_close(cookie)
    }

    /// libmagic's type for the bytes, such as `image/png`; `nil` when it fails.
    func mediaType(of bytes: [UInt8]) -> MediaType? {
        let text: String? = bytes.withUnsafeBytes { buffer in
            lock.lock()
            defer { lock.unlock() }
            guard let result = magic_buffer(cookie, buffer.baseAddress, buffer.count) else { return nil }
            return String(cString: result)
        }
        guard let text, let type = MediaType(text) else { return nil }
        // libmagic's names for "no content" are not media types a server expects.
        if type.subtype == "x-empty" { return nil }
        return type
    }
}
