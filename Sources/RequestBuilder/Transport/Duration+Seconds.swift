extension Duration {
    /// The duration as a person reads it, exactly: `30 seconds`, `1 second`,
    /// `0.0001 seconds` (Duration's own description rounds to `0.0 seconds`).
    package var secondsDescription: String {
        let (seconds, attoseconds) = components
        guard attoseconds != 0 else { return seconds == 1 ? "1 second" : "\(seconds) seconds" }
        let digits = String(attoseconds.magnitude)
        var fraction = String(repeating: "0", count: max(0, 18 - digits.count)) + digits
        while fraction.hasSuffix("0") { fraction.removeLast() }
        let sign = seconds == 0 && attoseconds < 0 ? "-" : ""
        return "\(sign)\(seconds).\(fraction) seconds"
    }

    /// The duration in seconds, as Foundation's `TimeInterval` counts them.
    package var inSeconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
