#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bytes of an IPv4 (4) or IPv6 (16) address written as text, or `nil`
/// for text that is no address (a host name).
func ipAddressBytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
        return withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 {
        return withUnsafeBytes(of: &v6) { Array($0) }
    }
    return nil
}

/// A CIDR block of a `no_proxy` list (`10.0.0.0/8`, `fd00::/8`): the
/// addresses whose first `prefixLength` bits are the block's. An address
/// without `/bits` is a block of one address.
struct IPAddressBlock {
    private let network: [UInt8]
    private let prefixLength: Int

    /// The block `entry` writes, or `nil` when it is no address or its
    /// length does not fit the address (`/33` for IPv4).
    init?(_ entry: String) {
        let parts = entry.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let network = ipAddressBytes(String(parts[0])) else { return nil }
        let length = parts.count == 2 ? Int(parts[1]) : network.count * 8
        guard let length, (0...network.count * 8).contains(length) else { return nil }
        self.network = network
        self.prefixLength = length
    }

    /// Whether `address` (as ``ipAddressBytes(_:)`` gives it) is in the block;
    /// an IPv4 address is never in an IPv6 block, nor the other way round.
    func contains(_ address: [UInt8]) -> Bool {
        guard address.count == network.count else { return false }
        var bits = prefixLength
        for (byte, networkByte) in zip(address, network) where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if byte & mask != networkByte & mask { return false }
            bits -= 8
        }
        return true
    }
}
