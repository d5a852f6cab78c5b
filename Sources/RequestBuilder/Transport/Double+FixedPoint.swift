extension Double {
    /// The value with exactly `digits` digits after the point, as C's `%.Nf`
    /// writes it: `1.5` with two digits is `1.50`, rounded to the nearest
    /// (a tie after scaling goes to the even digit, where C, reading the
    /// binary value exactly, may round a near-tie the other way).
    ///
    /// For the numbers a log line or a progress bar shows. Foundation's
    /// `String(format:)` would do, but on Linux it lives in the full
    /// Foundation, and one call links all of it (see `ConditionLock`).
    package func fixedPoint(digits: Int) -> String {
        var scale: UInt64 = 1
        for _ in 0..<max(0, digits) { scale *= 10 }
        let scaled = (self * Double(scale)).rounded(.toNearestOrEven)
        // Past 2^53 a Double holds no fraction to show; its own text is as exact.
        guard isFinite, scaled.magnitude < 9_007_199_254_740_992 else { return "\(self)" }
        let units = UInt64(scaled.magnitude)
        let sign = scaled < 0 ? "-" : ""
        guard digits > 0 else { return "\(sign)\(units)" }
        let fraction = String(units % scale)
        return "\(sign)\(units / scale)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }
}
