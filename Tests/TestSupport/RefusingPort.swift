#if canImport(Glibc)
import Glibc
#endif
import HTTPBody

/// A port on 127.0.0.1 that refuses every connection for as long as this
/// value lives: a TCP socket bound to it that never listens, so the kernel
/// answers a connect with a reset, and no other test can bind the port
/// meanwhile (a server's port freed by stopping it can be taken by a
/// parallel test, which then answers).
public final class RefusingPort: Sendable {
    /// The port that refuses.
    public let port: Int
    private let descriptor: LockedValue<Int32?>

    /// Binds a random free port.
    public init() throws {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(socket, address, length) == 0 && getsockname(socket, address, &length) == 0
            }
        }
        guard socket >= 0, bound else {
            if socket >= 0 { _ = Glibc.close(socket) }
            throw TestHTTPServerError(description: "No port to refuse connections on: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        descriptor = LockedValue(socket)
    }

    /// Frees the port.
    public func close() {
        let open = descriptor.withLock { descriptor in
            defer { descriptor = nil }
            return descriptor
        }
        if let open { _ = Glibc.close(open) }
    }

    deinit {
        close()
    }
}

extension RefusingPort {
    /// A port that refuses connections until the test process ends: held,
    /// never freed. A port freed after binding can be given to a parallel
    /// test's server, which would answer where a refusal is expected.
    public static func heldUntilExit() throws -> Int {
        let refusing = try RefusingPort()
        held.withLock { $0.append(refusing) }
        return refusing.port
    }

    /// The ports ``heldUntilExit()`` handed out.
    private static let held = LockedValue<[RefusingPort]>([])
}
