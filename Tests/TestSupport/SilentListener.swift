#if canImport(Glibc)
import Glibc
#endif
import HTTPBody

/// A TCP socket on 127.0.0.1 that listens and never accepts or reads.
///
/// Connections complete in the kernel's backlog and a client's bytes fill
/// the socket buffers, then stall: a server that never reads. With
/// `fillingBacklog`, the backlog is zero and one connection fills it, so the
/// kernel drops later SYNs: a host that never answers a connect.
public final class SilentListener: Sendable {
    /// The port it listens on.
    public let port: Int
    private let descriptors: LockedValue<[Int32]>

    /// Starts listening on a random port.
    public init(fillingBacklog: Bool = false) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
                bind(listener, address, length) == 0
                    && listen(listener, fillingBacklog ? 0 : 16) == 0
                    && getsockname(listener, address, &length) == 0
            }
        }
        guard listening else {
            _ = Glibc.close(listener)
            throw TestHTTPServerError(description: "The silent listener cannot listen: errno \(errno)")
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        var descriptors = [listener]
        if fillingBacklog {
            let filler = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            _ = withUnsafePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(filler, $0, length) }
            }
            descriptors.append(filler)
        }
        self.descriptors = LockedValue(descriptors)
    }

    /// Stops listening; connections still waiting in the backlog are reset.
    public func close() {
        let open = descriptors.withLock { descriptors in
            defer { descriptors = [] }
            return descriptors
        }
        for descriptor in open { _ = Glibc.close(descriptor) }
    }

    deinit {
        close()
    }
}
