/// A body's bytes with its content codings (`Content-Encoding: gzip`,
/// `deflate`) undone as they arrive: what ``_Concurrency/AsyncSequence/decodingContent(_:)``
/// returns.
///
/// Memory: one zlib inflate stream (about 44 KB) per coding, the chunk
/// being decoded and one output piece of at most ``pieceSize`` bytes,
/// however large the body or its decoded form (a small body that inflates
/// to gigabytes comes out a piece at a time).
public struct DecodedContent<Base: AsyncSequence>: AsyncSequence where Base.Element == [UInt8] {
    /// The most decoded bytes one element holds.
    public static var pieceSize: Int { 64 * 1024 }

    let base: Base
    /// The codings in the order they were applied (the header's order).
    let codings: [(format: Inflater.Format, name: String)]

    /// An iterator that decodes as it reads.
    public struct AsyncIterator: AsyncIteratorProtocol {
        var base: Base.AsyncIterator
        /// One inflater per coding, the last applied first.
        let inflaters: [Inflater]
        var baseEnded = false

        /// The next decoded piece, or `nil` at the end of the body.
        ///
        /// - Throws: ``ContentDecodingError`` when the bytes are not data of
        ///   their coding or end too soon, or the base sequence's error.
        public mutating func next() async throws -> [UInt8]? {
            guard !inflaters.isEmpty else { return try await base.next() }
            while true {
                if let piece = try decodeFrom(level: 0) { return piece }
                if baseEnded {
                    // Everything given is decoded: each coding's data must
                    // have ended with the body.
                    for inflater in inflaters { try inflater.finish() }
                    return nil
                }
                if let chunk = try await base.next() {
                    inflaters[0].give(chunk)
                } else {
                    baseEnded = true
                }
            }
        }

        /// A decoded piece from the inflater at `level` (0: the outermost
        /// coding) through the ones inside it, or `nil` when they all need
        /// more of the body. An inflater that returns nothing has consumed
        /// all it was given (zlib stops only when its input or its output
        /// room runs out), so the next one can be given more.
        private func decodeFrom(level: Int) throws(ContentDecodingError) -> [UInt8]? {
            let inflater = inflaters[level]
            guard level + 1 < inflaters.count else {
                let piece = try inflater.decode(limit: DecodedContent.pieceSize)
                return piece.isEmpty ? nil : piece
            }
            while true {
                if let piece = try decodeFrom(level: level + 1) { return piece }
                let piece = try inflater.decode(limit: DecodedContent.pieceSize)
                if piece.isEmpty { return nil }
                inflaters[level + 1].give(piece)
            }
        }
    }

    /// Starts reading the base sequence, with one inflater per coding.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(base: base.makeAsyncIterator(), inflaters: codings.reversed().map { Inflater($0.format, coding: $0.name) })
    }
}

extension DecodedContent: Sendable where Base: Sendable {}

extension AsyncSequence where Element == [UInt8] {
    /// These bytes with the content codings `contentEncoding` lists undone,
    /// as they arrive, in pieces of bounded size (``DecodedContent``).
    ///
    /// `gzip` and `x-gzip` (RFC 1952; zlib data under that name are taken
    /// too) and `deflate` (zlib-wrapped, RFC 1950, or raw, RFC 1951, told
    /// apart by the first two bytes) are decoded, last applied first;
    /// `identity` and an absent header leave the bytes as they are.
    /// Names are case-insensitive (RFC 9110, section 8.4.1).
    ///
    /// - Parameter contentEncoding: The `Content-Encoding` field's value, or
    ///   `nil` when there is none.
    /// - Throws: ``ContentDecodingError`` (``ContentDecodingError/Code/unsupportedCoding``)
    ///   for any other coding, before a byte is read. Iterating throws
    ///   ``ContentDecodingError`` when the bytes are not data of their coding
    ///   or end before it does.
    public func decodingContent(_ contentEncoding: String?) throws(ContentDecodingError) -> DecodedContent<Self> {
        var codings: [(format: Inflater.Format, name: String)] = []
        for item in (contentEncoding ?? "").split(separator: ",") {
            let name = item.trimmingSpaces().lowercased()
            switch name {
            case "", "identity": continue
            case "gzip", "x-gzip": codings.append((.gzip, name))
            case "deflate": codings.append((.deflate, name))
            default: throw .unsupported(String(item.trimmingSpaces()))
            }
        }
        return DecodedContent(base: self, codings: codings)
    }
}

extension Substring {
    /// Without the spaces and tabs around it (RFC 9110's optional whitespace).
    fileprivate func trimmingSpaces() -> Substring {
        var trimmed = self
        while let first = trimmed.first, first == " " || first == "\t" { trimmed.removeFirst() }
        while let last = trimmed.last, last == " " || last == "\t" { trimmed.removeLast() }
        return trimmed
    }
}
