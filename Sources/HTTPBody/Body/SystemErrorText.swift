#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns an `errno` value into the sentence the C library has for it.
package enum SystemErrorText {
    package static func describe(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "error \(code)" }
        return String(cString: text)
    }

    /// Why one of Foundation's file operations (`Data(contentsOf:)`, a
    /// write) failed, in the C library's words (`No such file or
    /// directory`). Read from `CocoaError` and `POSIXError`, not `NSError`
    /// or `localizedDescription`, which on Linux would link the whole of
    /// Foundation (ICU and CoreFoundation: 1,800 more conformance records
    /// for the runtime to scan at every first type lookup).
    package static func describe(fileError error: any Error) -> String {
        guard let cocoa = error as? CocoaError else { return String(describing: error) }
        if let posix = cocoa.underlying as? POSIXError { return describe(posix.code.rawValue) }
        switch cocoa.code {
        case .fileReadNoSuchFile, .fileNoSuchFile: return describe(ENOENT)
        case .fileReadNoPermission, .fileWriteNoPermission: return describe(EACCES)
        case .fileWriteOutOfSpace: return describe(ENOSPC)
        case .fileWriteFileExists: return describe(EEXIST)
        case .fileReadTooLarge: return describe(EFBIG)
        case .fileReadInvalidFileName, .fileWriteInvalidFileName: return "the file name is not valid"
        // Searchable, where a bare number would not be.
        default: return "file error (CocoaError code \(cocoa.code.rawValue))"
        }
    }
}
