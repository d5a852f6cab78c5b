import HTTPBody
import NIOCore

/// Notes the reason phrase of each response's status line as the bytes pass
/// on, unchanged, to the response decoder (which keeps only the code).
///
/// It reads a status line, skips the headers of an informational `1xx`
/// response to read the next one, and stops at the final one: following the
/// body's framing is the decoder's job. ``ResponseStatusGuard`` tells it when
/// that response has ended, and the next bytes start a new status line (an
/// HTTP/1.1 client sends its next request only then).
final class StatusLineReader: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer

    private enum State {
        case statusLine
        case informationalHeaders(lastBytes: UInt32)
        case idle
    }

    /// The longest status line read; a longer one is left to the decoder.
    private static let maximumLineLength = 8 * 1024

    private var state = State.statusLine
    private var line: [UInt8] = []
    /// Status lines read but not yet matched with a decoded head, oldest
    /// first: one read can carry a `100 Continue` and the final response.
    private var noted: [(code: Int, phrase: String)] = []

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let buffer = unwrapInboundIn(data)
        if case .idle = state {} else {
            buffer.withUnsafeReadableBytes { bytes in
                for byte in bytes { consume(byte) }
            }
        }
        context.fireChannelRead(data)
    }

    /// The phrase noted for the response whose head the decoder produced, if
    /// the code matches (anything else means the reader lost track).
    func takeReasonPhrase(forCode code: Int) -> String? {
        while !noted.isEmpty {
            let line = noted.removeFirst()
            if line.code == code { return line.phrase }
        }
        return nil
    }

    /// The response ended: the next byte starts a status line.
    func expectStatusLine() {
        state = .statusLine
        line.removeAll(keepingCapacity: true)
    }

    private func consume(_ byte: UInt8) {
        switch state {
        case .idle:
            return
        case .informationalHeaders(let lastBytes):
            let window = lastBytes << 8 | UInt32(byte)
            // "\r\n\r\n" (or a bare "\n\n") ends an informational response.
            if window == 0x0D0A_0D0A || window & 0xFFFF == 0x0A0A {
                expectStatusLine()
            } else {
                state = .informationalHeaders(lastBytes: window)
            }
        case .statusLine:
            guard byte != UInt8(ascii: "\n") else {
                finishStatusLine()
                return
            }
            line.append(byte)
            if line.count > Self.maximumLineLength {
                state = .idle
                line.removeAll()
            }
        }
    }

    /// The phrase's text, each control character (other than a tab) written
    /// as `\x1b`: HTTPTypes would turn it into a space, and a message that
    /// shows the phrase should show what the server sent, which cannot
    /// drive a terminal once written out so.
    private static func phrase(_ bytes: ArraySlice<UInt8>) -> String {
        guard bytes.contains(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) else { return String(decoding: bytes, as: UTF8.self) }
        var escaped: [UInt8] = []
        for byte in bytes {
            if (byte < 0x20 && byte != 0x09) || byte == 0x7F {
                escaped += Array("\\x\(CollectionOfOne(byte).lowercaseHex)".utf8)
            } else {
                escaped.append(byte)
            }
        }
        return String(decoding: escaped, as: UTF8.self)
    }

    /// `HTTP/1.1 503 Slow Down\r`: notes 503 and "Slow Down".
    private func finishStatusLine() {
        if line.last == UInt8(ascii: "\r") { line.removeLast() }
        let parts = line.split(separator: UInt8(ascii: " "), maxSplits: 2, omittingEmptySubsequences: false)
        line.removeAll(keepingCapacity: true)
        guard parts.count >= 2, parts[1].count == 3, parts[1].allSatisfy({ (0x30...0x39).contains($0) }) else {
            state = .idle
            return
        }
        let code = parts[1].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        let phrase = parts.count == 3 ? Self.phrase(parts[2]) : ""
        if noted.count < 8 { noted.append((code, phrase)) }
        state = (100..<200).contains(code) && code != 101 ? .informationalHeaders(lastBytes: 0) : .idle
    }
}
