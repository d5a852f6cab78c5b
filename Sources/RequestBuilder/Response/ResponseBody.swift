public import Foundation
import HTTPBody

/// A response body as it arrives: an async sequence of byte chunks that can
/// be read once.
///
/// Read it to stream a large download to disk in constant memory, or call
/// ``collect(upTo:)`` to have it in memory with a cap:
///
/// ```swift
/// let response = try await client.stream(request)
/// for try await chunk in response.body {
///     try file.write(contentsOf: chunk)
/// }
/// ```
///
/// A second read fails with ``RequestError/Code/transport`` instead of
/// waiting forever or trapping, as a network stream cannot be replayed. An
/// unread body is dropped when the last copy of it goes away; a transport
/// then closes the connection rather than read bytes nobody wants.
public struct ResponseBody: AsyncSequence, Sendable {
    /// A chunk of the body as it arrived.
    public typealias Element = [UInt8]

    private let source: Source

    /// A body that reads `chunks`, such as a transport's network stream.
    ///
    /// Only the first iteration reads `chunks`; later ones fail, so `chunks`
    /// need not support being iterated twice.
    public init<Chunks: AsyncSequence & Sendable>(_ chunks: Chunks) where Chunks.Element == [UInt8] {
        source = Source {
            var iterator = chunks.makeAsyncIterator()
            return { try await iterator.next() }
        }
    }

    /// A body whose bytes are already in memory.
    public init(_ bytes: Data) {
        source = Source {
            var remaining: Data? = bytes.isEmpty ? nil : bytes
            return {
                defer { remaining = nil }
                return remaining.map { [UInt8]($0) }
            }
        }
    }

    /// An empty body.
    public static var empty: ResponseBody { ResponseBody(Data()) }

    /// An iterator over the chunks; the first one made reads the body, later ones fail.
    public func makeAsyncIterator() -> Iterator {
        Iterator(next: source.take())
    }

    /// Reads the whole body into memory, failing rather than grow past `limit` bytes.
    ///
    /// - Throws: ``RequestError`` with code ``RequestError/Code/responseTooLarge``
    ///   as soon as the body passes `limit`, or the transport's error if the
    ///   connection fails while reading.
    public func collect(upTo limit: Int) async throws -> Data {
        try await collectBytes(into: Data(), upTo: limit) { RequestError.responseTooLarge(limit: limit) }
    }

    /// The same body, calling `onEnd` once with the byte count when it has
    /// been read to its end or failed (with the error); a body dropped
    /// unread never calls it.
    package func observingEnd(_ onEnd: @escaping @Sendable (Int64, (any Error)?) -> Void) -> ResponseBody {
        let source = self.source
        return ResponseBody(reader: {
            guard let read = source.take() else { return nil }
            var received: Int64 = 0
            return {
                do {
                    guard let chunk = try await read() else {
                        onEnd(received, nil)
                        return nil
                    }
                    received += Int64(chunk.count)
                    return chunk
                } catch {
                    onEnd(received, error)
                    throw error
                }
            }
        })
    }

    private init(reader makeReader: @escaping @Sendable () -> (() async throws -> [UInt8]?)?) {
        source = Source(makeReader)
    }

    /// Reads chunks in order; the read of a body that was read before fails.
    public struct Iterator: AsyncIteratorProtocol {
        private var read: (() async throws -> [UInt8]?)?
        private let isSecondRead: Bool

        fileprivate init(next: (() async throws -> [UInt8]?)?) {
            read = next
            isSecondRead = next == nil
        }

        /// The next non-empty chunk, or `nil` at the end of the body.
        public mutating func next() async throws -> [UInt8]? {
            while let read {
                do {
                    guard let chunk = try await read() else {
                        self.read = nil
                        return nil
                    }
                    // A source may hand over an empty chunk; the sequence never does.
                    if !chunk.isEmpty { return chunk }
                } catch {
                    self.read = nil
                    throw error
                }
            }
            if isSecondRead { throw RequestError.responseAlreadyRead() }
            return nil
        }
    }

    /// Hands the one reader out once.
    private final class Source: @unchecked Sendable {
        // @unchecked Sendable: `makeReader` is taken under `lock`, once; the
        // reader it makes belongs to one iterator and is never shared.
        private let lock = ConditionLock()
        private var makeReader: (@Sendable () -> (() async throws -> [UInt8]?)?)?

        init(_ makeReader: @escaping @Sendable () -> (() async throws -> [UInt8]?)?) {
            self.makeReader = makeReader
        }

        /// The reader, the first time; `nil` after that.
        func take() -> (() async throws -> [UInt8]?)? {
            lock.lock()
            let make = makeReader
            makeReader = nil
            lock.unlock()
            return make?() ?? nil
        }
    }
}
