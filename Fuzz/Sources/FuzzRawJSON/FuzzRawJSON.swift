import Foundation
import FuzzSupport
@testable import HTTPBody

/// Feeds text to the JSON checker behind `name:=value` items and raw JSON
/// bodies (`RawJSON`), with Foundation's `JSONSerialization` as an
/// independent parser.
///
/// Invariants: nothing traps; an accepted text is the input without the
/// whitespace around it, and is accepted again unchanged; a text accepted
/// here that holds no `\u` escape (where RFC 8259 lets lone surrogates
/// through and parsers differ) is accepted by `JSONSerialization` too, once
/// each number is written `0` (RFC 8259 sets no range, Foundation refuses
/// one past a Double's).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawJSON(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    let text = String(decoding: bytes, as: UTF8.self)
    guard let json = try? RawJSON(validating: text) else { return 0 }
    let whitespace: Set<UInt8> = [0x20, 0x09, 0x0A, 0x0D]
    let trimmed = Array(text.utf8).drop { whitespace.contains($0) }.reversed().drop { whitespace.contains($0) }.reversed()
    fuzzCheck(Array(json.text.utf8) == Array(trimmed), "kept \(json.text.debugDescription) of \(text.debugDescription)")
    fuzzCheck((try? RawJSON(validating: json.text))?.text == json.text, "\(json.text.debugDescription) is not accepted again")
    if !json.text.contains("\\u") {
        let parsed = try? JSONSerialization.jsonObject(with: Data(zeroingNumbers(json.text.utf8)), options: [.fragmentsAllowed])
        fuzzCheck(parsed != nil, "accepted \(json.text.debugDescription), which JSONSerialization refuses")
    }
    return 0
}

/// Valid JSON with every number replaced by `0`: outside strings, a number
/// is a run that begins with `-` or a digit.
private func zeroingNumbers(_ text: String.UTF8View) -> [UInt8] {
    var output: [UInt8] = []
    var inString = false
    var escaped = false
    var inNumber = false
    for byte in text {
        if inString {
            output.append(byte)
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            continue
        }
        let isNumberByte = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || [UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."), UInt8(ascii: "e"), UInt8(ascii: "E")].contains(byte)
        if inNumber, isNumberByte { continue }
        inNumber = false
        if byte == UInt8(ascii: "-") || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) {
            inNumber = true
            output.append(UInt8(ascii: "0"))
            continue
        }
        if byte == UInt8(ascii: "\"") { inString = true }
        output.append(byte)
    }
    return output
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzRawJSON_main")
public func fuzzRawJSONMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzRawJSON)
}
