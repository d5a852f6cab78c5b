import Foundation
import FuzzSupport
import HTTPBody
import HTTPTypes
import RequestBuilder

/// Feeds random header names and values to the builder's header validation
/// and then to the HTTP/1.1 serializer.
///
/// Invariants: nothing traps; a value with CR, LF or NUL is always rejected
/// (never silently altered, which `HTTPField` alone would do); an accepted
/// header appears in the serialized head as exactly one line
/// `Name: value` CRLF; a rejected one fails with `invalidRequest`.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHeaderValidation(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let names = ["X-Test", "Content-Length", "Transfer-Encoding", "Host", "Content-Type", "Accept"]
    let name = input.byte() < 64 ? names[input.choice(names.count)] : input.string(maximum: 24)
    let value = input.string(maximum: 64)
    let token = input.string(maximum: 32)
    let breaksLine = value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }

    do {
        let field = try HTTPField.validated(name, value)
        fuzzCheck(!breaksLine, "value \(value.debugDescription) with a line break was accepted")
        fuzzCheck(field.value == value, "value \(value.debugDescription) altered to \(field.value.debugDescription)")
        fuzzCheck(field.name.rawName == name, "name \(name.debugDescription) altered to \(field.name.rawName.debugDescription)")
    } catch {
        fuzzCheck(error.code == .invalidRequest, "unexpected code \(error.code)")
    }

    do {
        let request = try HTTPRequestBuilder.post("http://127.0.0.1:8080/p")
            .header(name, value)
            .bearer(token)
            .build()
        fuzzCheck(!breaksLine, "builder accepted \(value.debugDescription)")
        let raw = request.raw()
        let head = String(decoding: raw.head, as: UTF8.self)
        let lines = head.components(separatedBy: "\r\n")
        fuzzCheck(lines.suffix(2) == ["", ""], "head does not end with a blank line: \(head.debugDescription)")
        for line in lines.dropLast(2) {
            fuzzCheck(!line.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }, "line \(line.debugDescription)")
        }
        let wanted = "\(name): \(value)"
        if name.lowercased() != "authorization" {
            fuzzCheck(lines.filter { $0 == wanted }.count == 1, "\(wanted.debugDescription) not once in \(head.debugDescription)")
        }
        fuzzCheck(lines.contains("Authorization: Bearer \(token)"), "token line missing from \(head.debugDescription)")
    } catch {
        fuzzCheck(error.code == .invalidRequest, "builder failed with code \(error.code): \(error)")
    }
    return 0
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzHeaderValidation_main")
public func fuzzHeaderValidationMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzHeaderValidation)
}
