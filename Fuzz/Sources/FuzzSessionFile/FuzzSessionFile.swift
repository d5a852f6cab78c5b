import Foundation
import FuzzSupport
import FuzzUploaderItems

/// Feeds arbitrary text to the session file reader (`--session`), as the
/// file may sit on disk: written by HTTPie or an earlier run, edited by
/// hand, truncated.
///
/// Invariants: reading never traps; a session read has only cookies a
/// `Cookie` field can carry (a name, no `;`, `=` in the name or control
/// character) and an `__meta__.about` of ours or HTTPie's; written as the
/// uploader writes it and read again, it is the same session.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSessionFile(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let text = input.rest()
    guard let session = try? SessionFile(parsing: text) else { return 0 }
    fuzzCheck(SessionFile.readable.contains(session.meta.about), "about '\(session.meta.about)' read from \(text.debugDescription)")
    for cookie in session.cookies {
        let sendable = !cookie.name.isEmpty && !cookie.name.contains("=" as Character)
            && !(cookie.name + cookie.value).utf8.contains { $0 < 0x20 || $0 == 0x7F || $0 == UInt8(ascii: ";") }
        fuzzCheck(sendable, "cookie \(cookie) read from \(text.debugDescription)")
    }
    do {
        let written = try session.encoded()
        let again = try SessionFile(parsing: String(decoding: written, as: UTF8.self))
        fuzzCheck(again == session, "\(session) was written as \(String(decoding: written, as: UTF8.self).debugDescription) and read back as \(again)")
    } catch {
        fuzzCheck(false, "\(session), read from \(text.debugDescription), could not be written and read back: \(error)")
    }
    return 0
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzSessionFile_main")
public func fuzzSessionFileMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzSessionFile)
}
