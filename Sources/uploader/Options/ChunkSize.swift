/// `--chunk-size SIZE`: bytes, with an optional `K`, `M` or `G` suffix
/// (powers of 1024, either case), as curl's and rsync's sizes read.
enum ChunkSize {
    /// The largest size taken: a chunk is a request body, and a terabyte
    /// typo is not a plan.
    static let maximum: Int64 = 1 << 40

    /// The size `text` means, or `nil` when it is not a positive size.
    static func parse(_ text: String) -> Int64? {
        var digits = Substring(text)
        var factor: Int64 = 1
        switch digits.last {
        case "k", "K": factor = 1 << 10
        case "m", "M": factor = 1 << 20
        case "g", "G": factor = 1 << 30
        default: break
        }
        if factor > 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.utf8.count <= 13, digits.allSatisfy(\.isASCIIDigit), let count = Int64(digits) else { return nil }
        let (size, overflow) = count.multipliedReportingOverflow(by: factor)
        guard !overflow, size > 0, size <= maximum else { return nil }
        return size
    }
}

private extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
