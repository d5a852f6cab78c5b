import Foundation
import FuzzSupport
@testable import RequestBuilder

/// Feeds a response body to the JSON pretty printer behind the uploader's
/// `--pretty`, in its four modes (indented or as spaced, coloured or not),
/// with Foundation's `JSONSerialization` as an independent parser.
///
/// Invariants: nothing traps; what the printer formats without colours
/// holds no escape byte, and with colours is the same text once its colour
/// codes are taken out; as spaced and uncoloured, it is the input itself;
/// indented, it is the input but for whitespace between tokens; and a
/// formatted document `JSONSerialization` reads is read by it, formatted,
/// to the same value. What is not one JSON value by RFC 8259 the printer
/// gives nothing for (the caller writes the bytes as sent), even where
/// Foundation is lenient (a trailing comma, a byte order mark).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPrettyPrinter(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let input = start.map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
    let text = { String(decoding: input, as: UTF8.self).debugDescription }
    let asSpaced = JSONPrettyPrinter(indents: false, colours: false).format(input)
    let indented = JSONPrettyPrinter(indents: true, colours: false).format(input)
    let colouredAsSpaced = JSONPrettyPrinter(indents: false, colours: true).format(input)
    let colouredIndented = JSONPrettyPrinter(indents: true, colours: true).format(input)
    fuzzCheck([indented == nil, colouredAsSpaced == nil, colouredIndented == nil].allSatisfy { $0 == (asSpaced == nil) }, "the modes disagree on whether \(text()) is JSON")
    guard let asSpaced, let indented, let colouredAsSpaced, let colouredIndented else { return 0 }
    fuzzCheck(asSpaced == input, "as spaced, \(text()) became \(String(decoding: asSpaced, as: UTF8.self).debugDescription)")
    for output in [asSpaced, indented] {
        fuzzCheck(!output.contains(0x1B), "an escape byte without colours in \(String(decoding: output, as: UTF8.self).debugDescription)")
    }
    fuzzCheck(withoutColours(colouredAsSpaced) == asSpaced, "coloured as spaced, \(text()) is not the uncoloured text")
    fuzzCheck(withoutColours(colouredIndented) == indented, "coloured and indented, \(text()) is not the uncoloured text")
    fuzzCheck(tokens(indented) == tokens(input), "indented, \(text()) lost or gained more than whitespace")
    if let expected = try? JSONSerialization.jsonObject(with: Data(input), options: [.fragmentsAllowed]) {
        let reparsed = try? JSONSerialization.jsonObject(with: Data(indented), options: [.fragmentsAllowed])
        fuzzCheck(reparsed.map { sameValue($0, expected) } == true, "\(text()) indented reads as \(reparsed.map { "\($0)" } ?? "nothing"), not \(expected)")
    }
    return 0
}

/// The same value as `JSONSerialization` gives them: arrays, objects,
/// strings, numbers, booleans and null. (Bridging to `NSObject` and
/// `isEqual` would do, but bridges each nested array again at every level.)
private func sameValue(_ a: Any, _ b: Any) -> Bool {
    switch (a, b) {
    case (let x as [Any], let y as [Any]):
        return x.count == y.count && zip(x, y).allSatisfy(sameValue)
    case (let x as [String: Any], let y as [String: Any]):
        return x.count == y.count && x.allSatisfy { key, value in y[key].map { sameValue(value, $0) } ?? false }
    case (let x as String, let y as String):
        return x == y
    case (let x as NSNumber, let y as NSNumber):
        return x.isEqual(y)
    case (is NSNull, is NSNull):
        return true
    default:
        return false
    }
}

/// `bytes` without the colour codes the printer writes (ESC `[` digits `m`).
private func withoutColours(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == 0x1B, index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "[") {
            var end = index + 2
            while end < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[end]) { end += 1 }
            if end < bytes.count, bytes[end] == UInt8(ascii: "m") {
                index = end + 1
                continue
            }
        }
        output.append(bytes[index])
        index += 1
    }
    return output
}

/// The bytes outside strings that are not JSON whitespace, and every byte in strings.
private func tokens(_ bytes: [UInt8]) -> [UInt8] {
    var output: [UInt8] = []
    var inString = false
    var escaped = false
    for byte in bytes {
        if inString {
            if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
        } else if [0x20, 0x09, 0x0A, 0x0D].contains(byte) {
            continue
        } else if byte == UInt8(ascii: "\"") {
            inString = true
        }
        output.append(byte)
    }
    return output
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzJSONPrettyPrinter_main")
public func fuzzJSONPrettyPrinterMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzJSONPrettyPrinter)
}
