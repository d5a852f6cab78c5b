#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#else
import Foundation
#endif

/// The process's environment variables, read once.
///
/// The tool never changes its environment, so every reader (TLS trust,
/// proxies, credentials, cookies, colours) shares one copy. On Linux each
/// entry of `environ` is split at its first `=` by bytes (Foundation's
/// `ProcessInfo.environment` builds a new dictionary at each call and
/// splits by `Character`), and names and values are decoded as UTF-8 with invalid bytes replaced;
/// an entry without `=` is skipped, and of two entries with the same name
/// the first counts, as `getenv(3)` finds it.
enum ProcessEnvironment {
    static let variables: [String: String] = {
        #if canImport(Glibc) || canImport(Musl)
        return variables(in: environ)
        #else
        return ProcessInfo.processInfo.environment
        #endif
    }()

    /// The variables of `entries`, a list of `NAME=value` C strings ended by
    /// a null pointer, as `environ` is.
    static func variables(in entries: UnsafePointer<UnsafeMutablePointer<CChar>?>) -> [String: String] {
        var variables: [String: String] = [:]
        var entry = entries
        while let text = entry.pointee {
            let bytes = UnsafeBufferPointer(start: UnsafeRawPointer(text).assumingMemoryBound(to: UInt8.self), count: strlen(text))
            if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
                let name = String(decoding: bytes[..<equals], as: UTF8.self)
                if variables[name] == nil {
                    variables[name] = String(decoding: bytes[(equals + 1)...], as: UTF8.self)
                }
            }
            entry += 1
        }
        return variables
    }
}
