import FuzzSupport
import FuzzUploaderItems

/// Feeds arbitrary text to the netrc parser (`~/.netrc`, `--netrc-file`),
/// as it may sit on disk: stale, truncated, written by another tool.
///
/// Invariants: parsing never traps, and fails only for a quote that never
/// ends, on a line the text has; no entry is the placeholder a macro leaves
/// (an empty machine); the entry chosen for a host is that host's or
/// `default`; and a commented-out entry appended after the text (`#machine
/// planted.example login evil`, a line of its own) never supplies a login.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNetrc(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let text = input.rest()
    // Counted by scalar: "\r\n" is one Character, and a line still ends there.
    let lines = text.unicodeScalars.filter { $0 == "\n" }.count + 1
    do {
        let netrc = try Netrc(parsing: text)
        fuzzCheck(!netrc.entries.contains { $0.machine == "" }, "a macro's placeholder entry was kept from \(text.debugDescription)")
        if let host = netrc.entries.compactMap(\.machine).first, let chosen = netrc.entry(forHost: host) {
            fuzzCheck(chosen.machine == nil || chosen.machine == host.lowercased(), "\(host) chose \(chosen) from \(text.debugDescription)")
        }
    } catch {
        fuzzCheck(error.line >= 1 && error.line <= lines, "line \(error.line) of a \(lines)-line text \(text.debugDescription)")
    }
    // The same text with a commented-out entry after it, on a line of its own,
    // where no macro can hold it (a macro ends at an empty line).
    guard !text.unicodeScalars.contains(where: { $0 == "\"" }) else { return 0 }
    let planted = text + "\n\n#machine planted.example login evil password evil\n"
    if let netrc = try? Netrc(parsing: planted), let entry = netrc.entry(forHost: "planted.example") {
        fuzzCheck(entry.login != "evil" && entry.password != "evil", "a comment supplied \(entry) from \(planted.debugDescription)")
    }
    return 0
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzNetrc_main")
public func fuzzNetrcMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzNetrc)
}
