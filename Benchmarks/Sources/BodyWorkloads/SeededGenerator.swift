/// SplitMix64: a tiny deterministic generator, so every run of the benchmarks
/// produces the same inputs.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Creates a generator whose sequence is fixed by `seed`.
    public init(seed: UInt64) {
        state = seed
    }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// `count` random bytes (incompressible).
    public mutating func bytes(_ count: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: count)
        result.withUnsafeMutableBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                var word = next()
                let step = min(8, buffer.count - offset)
                withUnsafeBytes(of: &word) { wordBytes in
                    for index in 0..<step { buffer[offset + index] = wordBytes[index] }
                }
                offset += step
            }
        }
        return result
    }
}
