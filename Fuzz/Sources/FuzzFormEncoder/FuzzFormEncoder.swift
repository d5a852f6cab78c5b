import Foundation
import FuzzSupport
import HTTPBody

/// Feeds random names, values and nested structures to the form and query
/// encoders.
///
/// Invariants: encoding never traps; the output holds only unreserved
/// characters, `%XX`, `&`, `=` and (with `.plusReplaced`) `+`; decoding it
/// gives back exactly the pairs that went in; a query appended to a URL keeps
/// the URL's own query first.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFormEncoder(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let plus = input.byte() & 1 == 1
    let sorted = input.byte() & 1 == 1
    let encoder = URLEncodedFormEncoder(keyOrdering: sorted ? .sorted : .given, spaceEncoding: plus ? .plusReplaced : .percentEscaped)
    var pairs: [(String, String)] = []
    for _ in 0..<input.choice(8) {
        pairs.append((input.string(maximum: 32), input.string(maximum: 32)))
    }

    let encoded = encoder.encode(pairs)
    for byte in encoded.utf8 {
        let allowed = isUnreserved(byte) || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "=")
            || (plus && byte == UInt8(ascii: "+"))
        fuzzCheck(allowed, "byte \(byte) in \(encoded.debugDescription)")
    }
    let wanted = sorted ? stableSortedByName(pairs) : pairs
    let decoded = decode(encoded, plusIsSpace: plus)
    fuzzCheck(decoded.map(\.0) == wanted.map(\.0) && decoded.map(\.1) == wanted.map(\.1), "\(pairs) encoded as \(encoded.debugDescription) decoded to \(decoded)")

    // Nested Encodable values go through the other engine path.
    let tree = Nested(fields: Dictionary(pairs, uniquingKeysWith: { first, _ in first }), list: pairs.map(\.1), flag: plus, number: Int(input.byte()) - 128)
    for arrays in [URLEncodedFormEncoder.ArrayEncoding.brackets, .indexInBrackets, .noBrackets] {
        var nested = encoder
        nested.arrayEncoding = arrays
        if let text = try? nested.encode(tree) {
            fuzzCheck(text.utf8.allSatisfy { isUnreserved($0) || "%&=+".utf8.contains($0) }, "nested output \(text.debugDescription)")
        }
    }

    // A query appended to a URL keeps the URL's own query first.
    if let url = URL(string: "http://example.com/p?own=1") {
        let appended = url.appendingQuery(pairs, encoder: encoder)
        let query = URLComponents(url: appended, resolvingAgainstBaseURL: false)?.percentEncodedQuery ?? ""
        fuzzCheck(pairs.isEmpty ? query == "own=1" : query == "own=1&" + encoded, "query \(query.debugDescription) for \(encoded.debugDescription)")
    }
    return 0
}

private struct Nested: Encodable {
    var fields: [String: String]
    var list: [String]
    var flag: Bool
    var number: Int
}

private func isUnreserved(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
        UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
        true
    default:
        false
    }
}

/// Splits on `&` and `=` and percent-decodes, independently of the encoder.
private func decode(_ text: String, plusIsSpace: Bool) -> [(String, String)] {
    guard !text.isEmpty else { return [] }
    return text.split(separator: "&", omittingEmptySubsequences: false).map { pair in
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let clean = { (part: Substring) -> String in
            let spaced = plusIsSpace ? part.replacingOccurrences(of: "+", with: " ") : String(part)
            return spaced.removingPercentEncoding ?? "<undecodable \(part)>"
        }
        return (clean(parts[0]), parts.count > 1 ? clean(parts[1]) : "<no value>")
    }
}

private func stableSortedByName(_ pairs: [(String, String)]) -> [(String, String)] {
    pairs.enumerated().sorted { lhs, rhs in
        if lhs.element.0 == rhs.element.0 { return lhs.offset < rhs.offset }
        return lhs.element.0.utf8.lexicographicallyPrecedes(rhs.element.0.utf8)
    }.map(\.element)
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzFormEncoder_main")
public func fuzzFormEncoderMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzFormEncoder)
}
