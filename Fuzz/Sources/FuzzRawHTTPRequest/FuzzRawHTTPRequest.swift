import FuzzSupport
import HTTPBody
import HTTPTypes

/// Serializes random request descriptions (method, path, authority, header
/// fields, a body of known or unknown length) with `RawHTTPRequest` and parses
/// the bytes back as a server would.
///
/// Invariants: nothing traps; the request line is `METHOD SP target SP
/// HTTP/1.1`; no header line holds CR, LF or NUL; a body goes out with exactly
/// one of `Content-Length` (equal to its size) or chunked framing that decodes
/// to it, and nothing follows; a request without a body carries no bytes
/// after the head and no framing field but `Content-Length: 0` where its
/// method expects content (POST, PUT, PATCH, OPTIONS).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRawHTTPRequest(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    var input = FuzzInput(start, count)
    let methods: [HTTPRequest.Method] = [.get, .post, .put, .patch, .delete, .head, .options]
    let method = input.byte() < 200 ? methods[input.choice(methods.count)] : (HTTPRequest.Method(input.string(maximum: 12)) ?? .post)
    let path = input.string(maximum: 48)
    let authority: String? = input.byte() < 200 ? input.string(maximum: 32) : nil
    var fields = HTTPFields()
    let names = ["Content-Length", "Transfer-Encoding", "Content-Type", "Content-Encoding", "Host", "X-A"]
    for _ in 0..<input.choice(6) {
        let nameText = input.byte() < 128 ? names[input.choice(names.count)] : input.string(maximum: 16)
        guard let name = HTTPField.Name(nameText) else { continue }
        fields.append(HTTPField(name: name, value: input.string(maximum: 24)))
    }
    let content = input.bytes(maximum: 200)
    let bodyKind = input.choice(4)
    let chunkSize = 1 + input.choice(16)
    let body: RequestBody?
    switch bodyKind {
    case 0: body = nil
    case 1: body = .bytes(content, contentType: input.byte() < 128 ? nil : .octetStream)
    case 2: body = .stream(Chunked(content: content, size: chunkSize))
    default: body = .bytes(content).gzipped(level: input.choice(10))
    }
    let request = HTTPRequest(method: method, scheme: "http", authority: authority, path: path, headerFields: fields)

    let raw: RawHTTPRequest
    do {
        raw = try RawHTTPRequest(request, body: body)
    } catch {
        let target = path.isEmpty || !path.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }
        let host = authority.map { $0.isEmpty || !$0.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F } } ?? false
        let hosts = fields.filter { $0.name.canonicalName == "host" }.count > 1
        fuzzCheck(target || host || hosts, "rejected a valid target \(path.debugDescription) / \(authority.debugDescription): \(error)")
        return 0
    }
    let collected = runBlocking { try await raw.collect(upTo: 1 << 20) }
    guard case .success(let bytes) = collected else {
        fuzzCheck(false, "reading failed: \(collected)")
        return 0
    }
    let expectedBody: [UInt8]?
    switch body {
    case nil: expectedBody = nil
    case _ where bodyKind == 2: expectedBody = content  // a stream reads once
    case let body?:
        guard case .success(let plain) = runBlocking({ try await body.collect() }) else {
            fuzzCheck(false, "body could not be read twice")
            return 0
        }
        expectedBody = plain
    }
    // HTTPRequest itself may rewrite the path and authority it was given.
    // A Host field replaces the authority's Host line (as AsyncHTTPClient sends it).
    let hostField = request.headerFields.first { $0.name.canonicalName == "host" }?.value
    checkWire(bytes, method: method, path: request.path ?? "/", authority: request.authority, hostField: hostField, body: expectedBody, isStream: bodyKind >= 2)
    return 0
}

/// Parses the serialized request and checks its framing.
private func checkWire(_ bytes: [UInt8], method: HTTPRequest.Method, path: String, authority: String?, hostField: String?, body: [UInt8]?, isStream: Bool) {
    let separator: [UInt8] = [0x0D, 0x0A, 0x0D, 0x0A]
    guard let end = bytes.firstRange(of: separator) else {
        fuzzCheck(false, "no end of head in \(bytes)")
        return
    }
    let head = bytes[..<(end.lowerBound + 2)]  // each line with its CRLF
    let rest = Array(bytes[end.upperBound...])
    // Lines are compared as bytes: as Strings, a value that begins with a
    // combining mark (U+0363) would join the space before it into one
    // Character, and canonical equivalence would hide a changed byte.
    let lines = head.dropLast().split(separator: 0x0A, omittingEmptySubsequences: false).map { line -> [UInt8] in
        fuzzCheck(line.last == 0x0D, "line without CR in \(String(decoding: head, as: UTF8.self).debugDescription)")
        let text = Array(line.dropLast())
        fuzzCheck(!text.contains(0x0D) && !text.contains(0x00), "bare CR or NUL in a head line")
        return text
    }
    let requestLine = Array("\(method.rawValue) \(path) HTTP/1.1".utf8)
    fuzzCheck(lines.first == requestLine, "request line \(lines.first.map { String(decoding: $0, as: UTF8.self).debugDescription } ?? "nil")")
    var lengths: [String] = []
    var chunked = 0
    var hosts = 0
    for (index, line) in lines.dropFirst().enumerated() {
        let shown = String(decoding: line, as: UTF8.self).debugDescription
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            fuzzCheck(false, "header line without colon: \(shown)")
            return
        }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let value = Array(line[(colon + 1)...].drop { $0 == UInt8(ascii: " ") })
        if name == "host" {
            hosts += 1
            if let hostField {
                fuzzCheck(value == Array(hostField.utf8), "Host line \(shown), not the Host field")
            } else if let authority {
                fuzzCheck(index == 0 && value == Array(authority.utf8), "Host line \(shown) at \(index)")
            }
        }
        if name == "content-length" { lengths.append(String(decoding: value, as: UTF8.self)) }
        if name == "transfer-encoding" { chunked += 1; fuzzCheck(value == Array("chunked".utf8), "Transfer-Encoding \(shown)") }
    }
    fuzzCheck(hosts <= 1, "\(hosts) Host lines")
    guard let body else {
        // RFC 9110, section 8.6: a bodiless request whose method defines a
        // meaning for content says Content-Length: 0; others say nothing.
        let expectsContent = ![.get, .head, .delete, .connect, .trace].contains(method)
        fuzzCheck(lengths == (expectsContent ? ["0"] : []) && chunked == 0, "a request without a body declares framing: \(lengths) chunked \(chunked) for \(method)")
        fuzzCheck(rest.isEmpty, "bytes after a bodiless head")
        return
    }
    fuzzCheck((lengths.count == 1) != (chunked == 1) && lengths.count + chunked == 1, "framing fields: \(lengths), chunked \(chunked)")
    if let length = lengths.first {
        fuzzCheck(length == String(rest.count) && rest == body, "Content-Length \(length) but \(rest.count) body bytes")
        fuzzCheck(!isStream, "a stream of unknown length was given a Content-Length")
    } else {
        var position = 0
        var decoded: [UInt8] = []
        while true {
            guard let lineEnd = rest[position...].firstRange(of: [0x0D, 0x0A]),
                  let size = Int(String(decoding: rest[position..<lineEnd.lowerBound], as: UTF8.self), radix: 16)
            else {
                fuzzCheck(false, "bad chunk size line at \(position)")
                return
            }
            position = lineEnd.upperBound
            if size == 0 {
                fuzzCheck(Array(rest[position...]) == [0x0D, 0x0A], "trailing bytes after the last chunk")
                break
            }
            fuzzCheck(position + size + 2 <= rest.count, "chunk of \(size) runs past the end")
            decoded += rest[position..<position + size]
            fuzzCheck(Array(rest[position + size..<position + size + 2]) == [0x0D, 0x0A], "chunk not followed by CRLF")
            position += size + 2
        }
        fuzzCheck(decoded == body, "chunked body decodes to \(decoded.count) bytes, expected \(body.count)")
    }
}

/// A body of unknown length, delivered in chunks of `size` bytes.
private struct Chunked: AsyncSequence, Sendable {
    typealias Element = [UInt8]
    let content: [UInt8]
    let size: Int

    func makeAsyncIterator() -> Iterator { Iterator(content: content, size: size) }

    struct Iterator: AsyncIteratorProtocol {
        let content: [UInt8]
        let size: Int
        var position = 0

        mutating func next() async -> [UInt8]? {
            guard position < content.count else { return nil }
            let end = Swift.min(position + size, content.count)
            defer { position = end }
            return Array(content[position..<end])
        }
    }
}

/// The program's entry (see ``runFuzzer(_:_:_:)``).
@_cdecl("FuzzRawHTTPRequest_main")
public func fuzzRawHTTPRequestMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> CInt {
    runFuzzer(argc, argv, fuzzRawHTTPRequest)
}
