#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Standard input as an async sequence of chunks, read as it arrives (for
/// `name@-` parts and `--data -`). It can be read only once.
struct StandardInput: AsyncSequence, Sendable {
    typealias Element = [UInt8]

    /// The most each chunk holds.
    var chunkSize = 256 * 1024

    func makeAsyncIterator() -> Iterator { Iterator(chunkSize: chunkSize) }

    struct Iterator: AsyncIteratorProtocol {
        let chunkSize: Int

        mutating func next() async throws -> [UInt8]? {
            var failure: Int32?
            let chunk = [UInt8](unsafeUninitializedCapacity: chunkSize) { buffer, count in
                count = 0
                while true {
                    guard let base = buffer.baseAddress else { return }
                    let result = read(STDIN_FILENO, base, chunkSize)
                    if result < 0, errno == EINTR { continue }
                    if result < 0 { failure = errno } else { count = result }
                    return
                }
            }
            if let failure { throw StandardInputError(errno: failure) }
            return chunk.isEmpty ? nil : chunk
        }
    }
}

/// Reading standard input failed.
struct StandardInputError: Error, CustomStringConvertible {
    let errno: Int32
    var description: String {
        "cannot read standard input: " + (strerror(errno).map { String(cString: $0) } ?? "error \(errno)")
    }
}
